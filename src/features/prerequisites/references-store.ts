/**
 * The SQL of prerequisites seen from the features whose deletions they restrict: a flag that live
 * targets of other flags require (the flag store's `requiredBy`), and a value such a target lists
 * (the flag-value store's `usage`). Only those stores call it.
 */
import type { Db } from '../../storage/db.js';

/** Targets whose prerequisites count: every one that is or may become served. */
export const LIVE_STATUSES = ['draft', 'scheduled', 'published'];

/** A target of another flag that requires a flag. */
export interface RequiringTarget {
  flag_key: string;
  environment_key: string;
  /** To leave out the environments a caller was not granted when naming them. */
  environment_ulid: string;
}

/**
 * Targets of flags outside `flagUlids` that require one of `flagUlids` and are not expired, in
 * a stable order: what stops those flags from being deleted. Runs on the deleting transaction.
 */
export async function targetsRequiring(db: Db, flagUlids: readonly string[]): Promise<Map<string, RequiringTarget[]>> {
  const out = new Map<string, RequiringTarget[]>();
  if (flagUlids.length === 0) return out;
  const rows = (await db('target_prerequisites as p')
    .join('targets as t', 't.ulid', 'p.target_ulid')
    .join('flags as f', 'f.ulid', 't.flag_ulid')
    .join('environments as e', 'e.ulid', 't.environment_ulid')
    .whereIn('p.required_flag_ulid', [...flagUlids])
    .whereNotIn('t.flag_ulid', [...flagUlids])
    .whereIn('t.status', LIVE_STATUSES)
    .orderBy([{ column: 'f.key' }, { column: 'e.key' }])
    .select('p.required_flag_ulid', 'f.key as flag_key', 'e.key as environment_key', 'e.ulid as environment_ulid')) as {
    required_flag_ulid: string;
    flag_key: string;
    environment_key: string;
    environment_ulid: string;
  }[];
  for (const r of rows) {
    const list = out.get(r.required_flag_ulid) ?? [];
    if (!list.some((x) => x.flag_key === r.flag_key && x.environment_key === r.environment_key)) {
      list.push({ flag_key: r.flag_key, environment_key: r.environment_key, environment_ulid: r.environment_ulid });
    }
    out.set(r.required_flag_ulid, list);
  }
  return out;
}

/** Flags and environments of live targets whose prerequisites list the value. */
export async function targetsListingValue(db: Db, valueUlid: string): Promise<RequiringTarget[]> {
  const rows = (await db('target_prerequisites as p')
    .join('targets as t', 't.ulid', 'p.target_ulid')
    .join('flags as f', 'f.ulid', 't.flag_ulid')
    .join('environments as e', 'e.ulid', 't.environment_ulid')
    .whereIn('t.status', LIVE_STATUSES)
    // value ulids are unique and stored as a JSON array of strings
    .where('p.value_ulids', 'like', `%"${valueUlid}"%`)
    .orderBy([{ column: 'f.key' }, { column: 'e.key' }])
    .select('f.key as flag_key', 'e.key as environment_key', 'e.ulid as environment_ulid')) as RequiringTarget[];
  return rows;
}
