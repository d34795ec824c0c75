import type { Db } from '../storage/db.js';

/**
 * Deletes the hourly evaluation counts of at most `limit` of the oldest hours that began before
 * `before`. Returns how many hours it took and how many rows it deleted.
 */
export async function deleteEvaluationHoursBefore(db: Db, before: string, limit: number): Promise<{ hours: number; rows: number }> {
  const hours = (await db('evaluation_hours').where('hour', '<', before).distinct('hour').orderBy('hour').limit(limit)) as Array<{
    hour: string;
  }>;
  if (hours.length === 0) return { hours: 0, rows: 0 };
  const rows = await db('evaluation_hours')
    .whereIn(
      'hour',
      hours.map((h) => h.hour),
    )
    .del();
  return { hours: hours.length, rows };
}
