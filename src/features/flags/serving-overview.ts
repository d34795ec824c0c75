import type { Knex } from 'knex';
import type { components } from '../../../generated/management.js';
import { readEnvironmentKeys, readServingRows } from './serving-overview-store.js';
import { isOn, otherValuesOf, servesOf } from './serving-state.js';
import type { SplitRecord } from '../shared/splits.js';
import type { FlagType } from './store-types.js';

type FlagServingState = components['schemas']['FlagServingState'];

export interface FlagOverview {
  environments: FlagServingState[];
  last_used_at: string | null;
  last_evaluated_at: string | null;
  stale: boolean;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Whether the caller may see an environment (its grants); the overview leaves out the others. */
export type EnvironmentVisible = (environmentUlid: string) => boolean;

/** The keys of a project's environments the caller may see, for checking a filter's environment. */
export async function environmentKeys(db: Knex, projectUlid: string, visible: EnvironmentVisible): Promise<string[]> {
  return (await readEnvironmentKeys(db, projectUlid)).filter((e) => visible(e.ulid)).map((e) => e.key);
}

/**
 * What a page of flags serves in every environment, their last use and staleness: the console's
 * flag list and flag page. Set-based queries per page whatever the number of flags in the project.
 */
export async function servingOverview(
  db: Knex,
  projectUlid: string,
  flags: ReadonlyArray<{ ulid: string; type: FlagType; permanent: boolean; created_at: string }>,
  staleDays: number,
  now: Date,
  visible: EnvironmentVisible,
): Promise<Map<string, FlagOverview>> {
  const result = new Map<string, FlagOverview>();
  if (flags.length === 0) return result;
  // The last 24 hours as listFlagEvaluationHours counts them: the current UTC hour and the 23 before it.
  const since = new Date((Math.floor(now.getTime() / HOUR_MS) - 23) * HOUR_MS).toISOString();
  const {
    environments,
    targets,
    rules,
    splits,
    withPrerequisites,
    values,
    usage,
    evaluations: evaluated,
  } = await readServingRows(
    db,
    projectUlid,
    flags.map((f) => f.ulid),
    since,
  );
  const evaluations = new Map(evaluated.map((row) => [`${row.flag_ulid} ${row.environment_ulid}`, Number(row.count ?? 0)]));

  const display = new Map(values.map((v) => [v.ulid, v.display]));
  const defaults = new Map(values.filter((v) => Boolean(v.is_default)).map((v) => [v.flag_ulid, v.display]));
  const lastUsed = new Map<string, string>();
  const lastEvaluated = new Map<string, string>();
  const latest = (map: Map<string, string>, flagUlid: string, at: string | null) => {
    if (at !== null && (map.get(flagUlid) ?? '') < at) map.set(flagUlid, at);
  };
  for (const row of usage) {
    latest(lastUsed, row.flag_ulid, row.last_used_at);
    latest(lastEvaluated, row.flag_ulid, row.last_evaluated_at);
  }
  const cutoff = new Date(now.getTime() - staleDays * DAY_MS).toISOString();

  for (const flag of flags) {
    const mine = targets.filter((t) => t.flag_ulid === flag.ulid);
    // An environment the caller was not granted is absent, as from every list that names environments.
    const states = environments
      .filter((e) => visible(e.ulid))
      .map((environment): FlagServingState => {
        const here = mine.filter((t) => t.environment_ulid === environment.ulid);
        // Newest first: the first published one serves.
        const published = here.find((t) => t.status === 'published');
        const scheduled = here.find((t) => t.status === 'scheduled');
        const fallback = defaults.get(flag.ulid) ?? null;
        const value = published ? (display.get(published.value_ulid) ?? null) : fallback;
        const rolling = published?.rollout_status === 'active' || published?.rollout_status === 'paused';
        const publishedRules = published ? (rules.get(published.ulid) ?? []) : [];
        const rulesCount = publishedRules.length;
        const shown = (ulid: string) => display.get(ulid) ?? '';
        const sharesOf = (split: SplitRecord | null | undefined) =>
          split ? { shares: split.shares.map((s) => ({ value: shown(s.value_ulid), weight: s.weight })) } : null;
        const baseSplit = published ? sharesOf(splits.get(published.ulid)) : null;
        const otherValues = published
          ? otherValuesOf(
              {
                split: baseSplit,
                rules: publishedRules.map((r) => ({ value: shown(r.value_ulid), split: sharesOf(r.split) })),
                prerequisites: withPrerequisites.has(published.ulid) ? [published.ulid] : [],
              },
              fallback,
            )
          : [];
        return {
          environment_key: environment.key,
          evaluations_24h: evaluations.get(`${flag.ulid} ${environment.ulid}`) ?? 0,
          value,
          served_by: published ? 'target' : fallback !== null ? 'default' : 'unavailable',
          serves: servesOf(rulesCount, baseSplit),
          on: isOn(flag.type, fallback, { value, otherValues, rolling }),
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
      last_evaluated_at: lastEvaluated.get(flag.ulid) ?? null,
      stale: !flag.permanent && (used === null ? flag.created_at < cutoff : used < cutoff),
    });
  }
  return result;
}
