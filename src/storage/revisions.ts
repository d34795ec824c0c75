import type { Knex } from 'knex';

/**
 * Every change that can alter what an environment serves bumps its revision inside the same
 * transaction; caches on every instance compare revisions to know when to rebuild.
 */
export async function bumpEnvironmentRevision(trx: Knex.Transaction, environmentUlid: string): Promise<void> {
  await trx('environments').where('ulid', environmentUlid).increment('revision', 1);
}

/** For project-level changes (a flag, a value, a segment): every environment of the project. */
export async function bumpProjectRevisions(trx: Knex.Transaction, projectUlid: string): Promise<void> {
  await trx('environments').where('project_ulid', projectUlid).increment('revision', 1);
}
