import type { Knex } from 'knex';
import { isRetryableConflict } from './db-errors.js';

/**
 * Runs `work` in a transaction, retrying a few times when the database reports a deadlock
 * (MySQL's answer to two writers racing on the same rows). Inside `work`, use only `trx`.
 * Within an open transaction `work` runs in a savepoint and is never retried: a deadlock rolls
 * back the whole transaction, savepoints included, so only the outermost one may run again (a
 * retried savepoint would run outside any transaction, its writes kept whatever happens next).
 */
export async function inTransaction<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (knex.isTransaction === true) return knex.transaction(work);
  for (let attempt = 1; ; attempt++) {
    try {
      return await knex.transaction(work);
    } catch (error) {
      if (attempt >= 5 || !isRetryableConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 10 + Math.random() * 20));
    }
  }
}
