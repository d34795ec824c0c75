import type { Knex } from 'knex';
import type { Clock } from '../clock.js';
import { deleteInBatches, retentionCutoff } from '../retention.js';
import { deleteEvaluationHoursBefore } from './evaluation-hours-store.js';
import { hourOf } from './telemetry-buffer.js';

/**
 * Deletes hourly evaluation counts (evaluation_hours) of hours that began before the retention
 * cutoff, a batch of hours at a time; 0 keeps everything. Returns how many rows it deleted.
 * Several instances may run it at once: deleting by hour is idempotent.
 */
export async function purgeOldEvaluationHours(knex: Knex, clock: Clock, retentionDays: number, hoursPerBatch = 24): Promise<number> {
  if (retentionDays <= 0) return 0;
  const before = hourOf(new Date(retentionCutoff(clock, retentionDays)).toISOString());
  let deleted = 0;
  await deleteInBatches(async (limit) => {
    const batch = await deleteEvaluationHoursBefore(knex, before, limit);
    deleted += batch.rows;
    return batch.hours;
  }, hoursPerBatch);
  return deleted;
}
