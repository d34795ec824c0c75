import type { Db } from '../../storage/db.js';
import type { FlagType } from '../flags/store-types.js';
import { bool } from '../shared/lookup.js';

/** The display of the flag's default value; null when it has none. */
export async function defaultDisplayOf(db: Db, flagUlid: string): Promise<string | null> {
  const row = (await db('flag_values').where({ flag_ulid: flagUlid, is_default: true }).first('display')) as
    | { display: string }
    | undefined;
  return row?.display ?? null;
}

/** The flag as the serving overview reads it (type, permanence, age). */
export async function overviewFlag(
  db: Db,
  flagUlid: string,
): Promise<{ ulid: string; type: FlagType; permanent: boolean; created_at: string }> {
  const row = await db('flags').where('ulid', flagUlid).first('ulid', 'type', 'permanent', 'created_at');
  return { ...row, permanent: bool(row.permanent) };
}
