/**
 * The SQL that finds a target from its path, shared by the stores of the target's parts (rules,
 * prerequisites).
 */
import type { ResourceAccess } from '../../auth/principal.js';
import { NotFoundError } from '../../http/errors.js';
import { type Dialect, hasRowLocks } from '../../storage/database.js';
import { isTransaction, type Db } from '../../storage/db.js';
import type { ResolvedTarget, TargetPath } from '../rules/store-types.js';
import { knexLookups } from './lookup-store.js';

/**
 * The project, flag, environment and target of `path` (NotFoundError when one is missing).
 * `lock` (in a MySQL transaction): first takes the target's row lock, so the change waits for
 * the others on the same target.
 */
export async function resolveTargetPath(
  db: Db,
  dialect: Dialect,
  access: ResourceAccess,
  path: TargetPath,
  options: { lock?: boolean },
): Promise<ResolvedTarget> {
  if (options.lock && isTransaction(db) && hasRowLocks(dialect)) {
    // First statement of the transaction: InnoDB takes its read snapshot at the first plain
    // read, so taking the lock before any of them makes every later read see what the
    // transactions we waited for committed.
    await db('targets').where('ulid', path.targetUlid).forUpdate().first('ulid');
  }
  const { project, flag, environment } = await knexLookups.findFlagEnvironment(db, access, path);
  const target = (await db('targets')
    .where({ ulid: path.targetUlid, flag_ulid: flag.ulid, environment_ulid: environment.ulid })
    .first('ulid', 'status')) as { ulid: string; status: string } | undefined;
  if (!target) throw new NotFoundError(`Target "${path.targetUlid}" not found.`);
  return { project, flag, environment, target };
}

/** A stored JSON list of ulids (or values) as strings; anything else reads as empty. */
export function storedStringList(text: string): string[] {
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/** What the stores of a target's parts (rules, prerequisites) share: finding the target. */
export abstract class TargetPartStore {
  constructor(protected readonly dialect: Dialect) {}

  /** `lock` takes the target's row lock when `db` is a transaction. */
  resolveTarget(db: Db, access: ResourceAccess, path: TargetPath, options: { lock?: boolean } = {}): Promise<ResolvedTarget> {
    return resolveTargetPath(db, this.dialect, access, path, options);
  }
}
