import type { Db } from '../../storage/db.js';
import { readSplits } from '../shared/split-store.js';
import type { SplitRecord } from '../shared/splits.js';

/** The rows the console's serving overview (serving-overview.ts) is computed from. */
export interface ServingRows {
  /** The project's environments, by ulid. */
  environments: Array<{ ulid: string; key: string }>;
  /** The flags' published, draft and scheduled targets, newest publish first. */
  targets: Array<{
    ulid: string;
    flag_ulid: string;
    environment_ulid: string;
    status: string;
    value_ulid: string;
    rollout_percentage: number | null;
    rollout_status: string | null;
    scheduled_at: string | null;
    published_at: string | null;
  }>;
  /** The rules of each published target, in order (absent: none), with their splits. */
  rules: Map<string, Array<{ value_ulid: string; split: SplitRecord | null }>>;
  /** The base splits of the published targets (absent: none). */
  splits: Map<string, SplitRecord>;
  /** The published targets that have prerequisites. */
  withPrerequisites: Set<string>;
  values: Array<{ ulid: string; flag_ulid: string; display: string; is_default: unknown }>;
  /** When each flag was last used (SDK reports) and evaluated (public API), per environment row that has either. */
  usage: Array<{ flag_ulid: string; last_used_at: string | null; last_evaluated_at: string | null }>;
  /** Evaluations per flag and environment from the hour `since` on (absent: none). */
  evaluations: Array<{ flag_ulid: string; environment_ulid: string; count: number | string | null }>;
}

/** Set-based queries per page of flags, whatever the number of flags in the project; evaluations counted from the hour `since`. */
export async function readServingRows(db: Db, projectUlid: string, flagUlids: readonly string[], since: string): Promise<ServingRows> {
  const environments = (await db('environments')
    .where('project_ulid', projectUlid)
    .orderBy('ulid')
    .select('ulid', 'key')) as ServingRows['environments'];
  const targets = (await db('targets')
    .whereIn('flag_ulid', flagUlids)
    .whereIn('status', ['published', 'draft', 'scheduled'])
    .orderBy([
      { column: 'published_at', order: 'desc' },
      { column: 'ulid', order: 'desc' },
    ])
    .select(
      'ulid',
      'flag_ulid',
      'environment_ulid',
      'status',
      'value_ulid',
      'rollout_percentage',
      'rollout_status',
      'scheduled_at',
      'published_at',
    )) as ServingRows['targets'];
  const publishedUlids = targets.filter((t) => t.status === 'published').map((t) => t.ulid);
  const rules: ServingRows['rules'] = new Map();
  const withPrerequisites = new Set<string>();
  const ruleRows: Array<{ ulid: string; target_ulid: string; value_ulid: string }> = [];
  // Chunked: a page of flags times its environments can hold more targets than a driver binds.
  for (let i = 0; i < publishedUlids.length; i += 500) {
    const part = publishedUlids.slice(i, i + 500);
    ruleRows.push(
      ...((await db('rules')
        .whereIn('target_ulid', part)
        .orderBy(['target_ulid', 'position'])
        .select('ulid', 'target_ulid', 'value_ulid')) as typeof ruleRows),
    );
    const required = (await db('target_prerequisites').whereIn('target_ulid', part).distinct('target_ulid')) as Array<{
      target_ulid: string;
    }>;
    for (const row of required) withPrerequisites.add(row.target_ulid);
  }
  const splits = await readSplits(db, [...publishedUlids, ...ruleRows.map((r) => r.ulid)]);
  for (const row of ruleRows) {
    const list = rules.get(row.target_ulid) ?? [];
    list.push({ value_ulid: row.value_ulid, split: splits.get(row.ulid) ?? null });
    rules.set(row.target_ulid, list);
  }
  const values = (await db('flag_values')
    .whereIn('flag_ulid', flagUlids)
    .select('ulid', 'flag_ulid', 'display', 'is_default')) as ServingRows['values'];
  const usage = (await db('flag_telemetry')
    .whereIn('flag_ulid', flagUlids)
    .where((q) => q.whereNotNull('last_used_at').orWhereNotNull('last_evaluated_at'))
    .select('flag_ulid', 'last_used_at', 'last_evaluated_at')) as ServingRows['usage'];

  const evaluations = (await db('evaluation_hours')
    .whereIn('flag_ulid', flagUlids)
    .where('hour', '>=', since)
    .groupBy('flag_ulid', 'environment_ulid')
    .select('flag_ulid', 'environment_ulid')
    .sum({ count: 'count' })) as ServingRows['evaluations'];

  return { environments, targets, rules, splits, withPrerequisites, values, usage, evaluations };
}

/** The ulids and keys of a project's environments, for checking a filter's environment. */
export async function readEnvironmentKeys(db: Db, projectUlid: string): Promise<Array<{ ulid: string; key: string }>> {
  return (await db('environments').where('project_ulid', projectUlid).select('ulid', 'key')) as Array<{ ulid: string; key: string }>;
}
