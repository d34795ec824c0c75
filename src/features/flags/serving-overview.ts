import type { Knex } from 'knex';
import type { components } from '../../../generated/management.js';
import { isOn } from './serving-state.js';
import type { FlagType } from './store-types.js';

type FlagServingState = components['schemas']['FlagServingState'];

export interface FlagOverview {
  environments: FlagServingState[];
  last_used_at: string | null;
  stale: boolean;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The keys of a project's environments, for checking a filter's environment. */
export async function environmentKeys(db: Knex, projectUlid: string): Promise<string[]> {
  const rows = (await db('environments').where('project_ulid', projectUlid).select('key')) as Array<{ key: string }>;
  return rows.map((row) => row.key);
}

/**
 * What a page of flags serves in every environment, their last use and staleness: the console's
 * flag list and flag page. Seven set-based queries per page whatever the number of flags in the project.
 */
export async function servingOverview(
  db: Knex,
  projectUlid: string,
  flags: ReadonlyArray<{ ulid: string; type: FlagType; permanent: boolean; created_at: string }>,
  staleDays: number,
  now: Date,
): Promise<Map<string, FlagOverview>> {
  const result = new Map<string, FlagOverview>();
  if (flags.length === 0) return result;
  const flagUlids = flags.map((f) => f.ulid);
  const environments = (await db('environments').where('project_ulid', projectUlid).orderBy('ulid').select('ulid', 'key')) as Array<{
    ulid: string;
    key: string;
  }>;
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
    )) as Array<{
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
  const publishedUlids = targets.filter((t) => t.status === 'published').map((t) => t.ulid);
  const ruleCounts = new Map<string, number>();
  // Chunked: a page of flags times its environments can hold more targets than a driver binds.
  for (let i = 0; i < publishedUlids.length; i += 500) {
    const rows = (await db('rules')
      .whereIn('target_ulid', publishedUlids.slice(i, i + 500))
      .groupBy('target_ulid')
      .select('target_ulid')
      .count({ count: '*' })) as Array<{ target_ulid: string; count: number | string }>;
    for (const row of rows) ruleCounts.set(row.target_ulid, Number(row.count));
  }
  const values = (await db('flag_values').whereIn('flag_ulid', flagUlids).select('ulid', 'flag_ulid', 'display', 'is_default')) as Array<{
    ulid: string;
    flag_ulid: string;
    display: string;
    is_default: unknown;
  }>;
  const usage = (await db('flag_telemetry')
    .whereIn('flag_ulid', flagUlids)
    .whereNotNull('last_used_at')
    .select('flag_ulid', 'last_used_at')) as Array<{
    flag_ulid: string;
    last_used_at: string;
  }>;

  // The last 24 hours as listFlagEvaluationHours counts them: the current UTC hour and the 23 before it.
  const since = new Date((Math.floor(now.getTime() / HOUR_MS) - 23) * HOUR_MS).toISOString();
  const evaluated = (await db('evaluation_hours')
    .whereIn('flag_ulid', flagUlids)
    .where('hour', '>=', since)
    .groupBy('flag_ulid', 'environment_ulid')
    .select('flag_ulid', 'environment_ulid')
    .sum({ count: 'count' })) as Array<{ flag_ulid: string; environment_ulid: string; count: number | string | null }>;
  const evaluations = new Map(evaluated.map((row) => [`${row.flag_ulid} ${row.environment_ulid}`, Number(row.count ?? 0)]));

  const display = new Map(values.map((v) => [v.ulid, v.display]));
  const defaults = new Map(values.filter((v) => Boolean(v.is_default)).map((v) => [v.flag_ulid, v.display]));
  const lastUsed = new Map<string, string>();
  for (const row of usage) if ((lastUsed.get(row.flag_ulid) ?? '') < row.last_used_at) lastUsed.set(row.flag_ulid, row.last_used_at);
  const cutoff = new Date(now.getTime() - staleDays * DAY_MS).toISOString();

  for (const flag of flags) {
    const mine = targets.filter((t) => t.flag_ulid === flag.ulid);
    const states = environments.map((environment): FlagServingState => {
      const here = mine.filter((t) => t.environment_ulid === environment.ulid);
      // Newest first: the first published one serves.
      const published = here.find((t) => t.status === 'published');
      const scheduled = here.find((t) => t.status === 'scheduled');
      const fallback = defaults.get(flag.ulid) ?? null;
      const value = published ? (display.get(published.value_ulid) ?? null) : fallback;
      const rolling = published?.rollout_status === 'active' || published?.rollout_status === 'paused';
      const rulesCount = published ? (ruleCounts.get(published.ulid) ?? 0) : 0;
      return {
        environment_key: environment.key,
        evaluations_24h: evaluations.get(`${flag.ulid} ${environment.ulid}`) ?? 0,
        value,
        served_by: published ? 'target' : fallback !== null ? 'default' : 'unavailable',
        on: isOn(flag.type, fallback, { value, rulesCount, rolling }),
        rules_count: rulesCount,
        published_at: published?.published_at ?? null,
        rollout_percentage: rolling ? published.rollout_percentage : null,
        rollout_status: rolling ? (published.rollout_status as 'active' | 'paused') : null,
        draft: here.some((t) => t.status === 'draft'),
        scheduled_at: scheduled?.scheduled_at ?? null,
      };
    });
    const used = lastUsed.get(flag.ulid) ?? null;
    result.set(flag.ulid, {
      environments: states,
      last_used_at: used,
      stale: !flag.permanent && (used === null ? flag.created_at < cutoff : used < cutoff),
    });
  }
  return result;
}
