import type { Knex } from 'knex';

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
 */
export async function bumpEnvironmentRevision(
  trx: Knex.Transaction,
  environmentUlid: string,
  flagUlids?: readonly string[],
): Promise<void> {
  await trx('environments').where('ulid', environmentUlid).increment('revision', 1);
  const rows = await trx('environments').where('ulid', environmentUlid).select('ulid', 'revision');
  await recordChanges(trx, rows, flagUlids);
}

/** For project-level changes (a flag, a value, a segment): every environment of the project. */
export async function bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string, flagUlids?: readonly string[]): Promise<void> {
  await trx('environments').where('project_ulid', projectUlid).increment('revision', 1);
  const rows = await trx('environments').where('project_ulid', projectUlid).select('ulid', 'revision');
  await recordChanges(trx, rows, flagUlids);
}

async function recordChanges(
  trx: Knex.Transaction,
  environments: Array<{ ulid: string; revision: number | string }>,
  flagUlids: readonly string[] | undefined,
): Promise<void> {
  if (environments.length === 0) return;
  const flags: Array<string | null> = flagUlids && flagUlids.length > 0 ? [...new Set(flagUlids)] : [null];
  const rows = environments.flatMap((env) =>
    flags.map((flagUlid) => ({ environment_ulid: env.ulid, revision: Number(env.revision), flag_ulid: flagUlid })),
  );
  for (let i = 0; i < rows.length; i += 500) await trx('revision_changes').insert(rows.slice(i, i + 500));
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
