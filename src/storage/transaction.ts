import type { Knex } from 'knex';
import { isConnectionLost, isRetryableConflict } from './db-errors.js';

/** Attempts of one transaction against deadlocks and Galera's certification conflicts. */
const CONFLICT_ATTEMPTS = 8;
/** Attempts of one transaction whose connection failed before COMMIT (the next goes to a live host). */
const CONNECTION_ATTEMPTS = 3;

/**
 * Runs `work` in a transaction, retrying it whole when running it again is safe:
 * - the database reports a deadlock (MySQL's answer to two writers racing on the same rows) or,
 *   on Galera, a certification conflict (the same error, 1213, also at COMMIT): the server rolled
 *   the whole transaction back;
 * - the connection was lost (its server died, or a Galera node left the primary component)
 *   before COMMIT was sent: nothing was written, and the pool's next connection goes to a live
 *   host (mysql-hosts.ts). A failure at COMMIT itself leaves the outcome unknown, and a query
 *   that timed out may still be running: neither is retried (503, the client decides).
 * Inside `work`, use only `trx`. Within an open transaction `work` runs in a savepoint and is
 * never retried: a deadlock rolls back the whole transaction, savepoints included, so only the
 * outermost one may run again (a retried savepoint would run outside any transaction, its
 * writes kept whatever happens next).
 */
export async function inTransaction<T>(knex: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  if (knex.isTransaction === true) return knex.transaction((trx) => runWithFinalSteps(trx, work));
  for (let attempt = 1; ; attempt++) {
    let committing = false;
    let workError: unknown;
    try {
      return await knex.transaction(async (trx) => {
        try {
          const result = await runWithFinalSteps(trx, work);
          committing = true;
          return result;
        } catch (error) {
          workError = error;
          throw error;
        }
      });
    } catch (error) {
      const conflict = isRetryableConflict(error) && attempt < CONFLICT_ATTEMPTS;
      // Knex's ROLLBACK on a lost connection fails with an error of its own: the work's tells why.
      const lostBeforeCommit = !committing && isConnectionLost(workError ?? error) && attempt < CONNECTION_ATTEMPTS;
      if (!conflict && !lostBeforeCommit) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 10 + Math.random() * 20));
    }
  }
}

/** Steps each open transaction of inTransaction runs after its work, just before COMMIT. */
const finalSteps = new WeakMap<Knex.Transaction, Array<() => Promise<void>>>();

async function runWithFinalSteps<T>(trx: Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const steps: Array<() => Promise<void>> = [];
  finalSteps.set(trx, steps);
  const result = await work(trx);
  // A step may add another (it runs too); the list is read until it is empty.
  for (let step = steps.shift(); step; step = steps.shift()) await step();
  finalSteps.delete(trx);
  return result;
}

/**
 * Schedules `step` to run in `trx` after the transaction's work, just before its COMMIT, and
 * answers true; answers false when `trx` was not opened by inTransaction (the caller runs the
 * step itself). Used for writes to rows every writer shares (the environments' revisions): their
 * row locks are then held for the step and the commit only, not for the rest of the transaction.
 */
export function runBeforeCommit(trx: Knex.Transaction, step: () => Promise<void>): boolean {
  const steps = finalSteps.get(trx);
  if (!steps) return false;
  steps.push(step);
  return true;
}
