import type { Knex } from 'knex';
import { runBeforeCommit } from './transaction.js';

/**
 * revision_changes rows kept per environment (beyond the newest row of each flag, which is kept
 * always); a cache further behind than this reloads in full.
 */
export const REVISION_CHANGES_KEPT = 200;
/** Old rows are pruned when a revision is a multiple of this (a bounded table, rarely a DELETE). */
const PRUNE_EVERY = 50;

/**
 * Every change that can alter what an environment serves bumps its revision inside the same
 * transaction; caches on every instance compare revisions to know when to rebuild. The bump also
 * records which flags the new revision changed (revision_changes), so a cache reloads those flags
 * only; without `flagUlids` the change concerns the whole environment (e.g. segments).
 *
 * Every writer of a project updates the same environment rows, so their row locks queue writers
 * behind each other until the holder commits. In a transaction of inTransaction the bump is
 * therefore made last, just before COMMIT (runBeforeCommit): the locks are held for the bump and
 * the commit only, not for the statements the transaction still had to send (audit entry,
 * webhook outbox), each a round trip on MySQL/MariaDB and PostgreSQL. It also makes the
 * revisions' order the commits' order.
 */
export async function bumpEnvironmentRevision(
  trx: Knex.Transaction,
  environmentUlid: string,
  flagUlids?: readonly string[],
): Promise<void> {
  await bump(trx, { column: 'ulid', ulid: environmentUlid }, flagUlids);
}

/** For project-level changes (a flag, a value, a segment): every environment of the project. */
export async function bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string, flagUlids?: readonly string[]): Promise<void> {
  await bump(trx, { column: 'project_ulid', ulid: projectUlid }, flagUlids);
}

/** The environments a bump concerns: one (by its ulid) or a project's (by project_ulid). */
interface BumpScope {
  column: 'ulid' | 'project_ulid';
  ulid: string;
}

/** The bumps a transaction makes before its commit; the same scope twice is bumped once. */
interface PendingBump {
  scope: BumpScope;
  /** null: the whole environment. */
  flags: Set<string | null>;
}

const pendingBumps = new WeakMap<Knex.Transaction, PendingBump[]>();

async function bump(trx: Knex.Transaction, scope: BumpScope, flagUlids: readonly string[] | undefined): Promise<void> {
  const flags: Array<string | null> = flagUlids && flagUlids.length > 0 ? [...flagUlids] : [null];
  const pending = pendingBumps.get(trx);
  if (pending) {
    const same = pending.find((p) => p.scope.column === scope.column && p.scope.ulid === scope.ulid);
    if (same) for (const flag of flags) same.flags.add(flag);
    else pending.push({ scope, flags: new Set(flags) });
    return;
  }
  const first: PendingBump = { scope, flags: new Set(flags) };
  const bumps = [first];
  const deferred = runBeforeCommit(trx, async () => {
    pendingBumps.delete(trx);
    for (const next of bumps) await bumpNow(trx, next);
  });
  if (deferred) pendingBumps.set(trx, bumps);
  else await bumpNow(trx, first);
}

async function bumpNow(trx: Knex.Transaction, { scope, flags }: PendingBump): Promise<void> {
  const rows = isPostgres(trx) ? await bumpReturning(trx, scope, [...flags]) : await bumpThenRead(trx, scope, [...flags]);
  await pruneChanges(trx, rows);
}

async function bumpThenRead(trx: Knex.Transaction, scope: BumpScope, flags: Array<string | null>): Promise<EnvironmentRevision[]> {
  await trx('environments').where(scope.column, scope.ulid).increment('revision', 1);
  const rows: EnvironmentRevision[] = await trx('environments').where(scope.column, scope.ulid).select('ulid', 'revision');
  await recordChanges(trx, rows, flags);
  return rows;
}

/**
 * PostgreSQL: the update, the read of the new revisions and the revision_changes rows in one
 * statement, one round trip while the rows are locked instead of three. The flags go as one
 * array literal (ulids are letters and digits only; NULL is the whole environment).
 */
async function bumpReturning(trx: Knex.Transaction, scope: BumpScope, flags: Array<string | null>): Promise<EnvironmentRevision[]> {
  const column = scope.column === 'ulid' ? 'ulid' : 'project_ulid';
  const flagArray = `{${flags.map((flag) => (flag === null ? 'NULL' : flag)).join(',')}}`;
  const result = await trx.raw(
    `WITH bumped AS (UPDATE environments SET revision = revision + 1 WHERE ${column} = ? RETURNING ulid, revision)
     INSERT INTO revision_changes (environment_ulid, revision, flag_ulid)
     SELECT bumped.ulid, bumped.revision, changed.flag_ulid FROM bumped CROSS JOIN unnest(?::text[]) AS changed(flag_ulid)
     RETURNING environment_ulid AS ulid, revision`,
    [scope.ulid, flagArray],
  );
  const seen = new Map<string, EnvironmentRevision>();
  for (const row of result.rows as EnvironmentRevision[]) seen.set(row.ulid, row);
  return [...seen.values()];
}

function isPostgres(trx: Knex.Transaction): boolean {
  return (trx.client as { driverName?: string }).driverName === 'pg';
}

interface EnvironmentRevision {
  ulid: string;
  revision: number | string;
}

async function recordChanges(trx: Knex.Transaction, environments: EnvironmentRevision[], flags: Array<string | null>): Promise<void> {
  if (environments.length === 0) return;
  const rows = environments.flatMap((env) =>
    flags.map((flagUlid) => ({ environment_ulid: env.ulid, revision: Number(env.revision), flag_ulid: flagUlid })),
  );
  for (let i = 0; i < rows.length; i += 500) await trx('revision_changes').insert(rows.slice(i, i + 500));
}

async function pruneChanges(trx: Knex.Transaction, environments: EnvironmentRevision[]): Promise<void> {
  for (const env of environments) {
    const revision = Number(env.revision);
    if (revision % PRUNE_EVERY !== 0) continue;
    // The newest row of each flag (and of the segments, flag_ulid null) stays however old: it is
    // that flag's own revision, which OFREP reports (config-loader.ts, changeRevisions). The
    // inner select is wrapped in a derived table because MySQL refuses to read the table a
    // DELETE deletes from.
    await trx('revision_changes')
      .where('environment_ulid', env.ulid)
      .where('revision', '<=', revision - REVISION_CHANGES_KEPT)
      .whereNotIn(
        'id',
        trx
          .select('newest.id')
          .from(trx('revision_changes').where('environment_ulid', env.ulid).groupBy('flag_ulid').max({ id: 'id' }).as('newest')),
      )
      .delete();
  }
}
