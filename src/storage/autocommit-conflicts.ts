/**
 * A statement run outside a transaction (autocommit: an audit batch, a usage count, a token's
 * last use) that Galera's certification rejects (1213, "WSREP detected deadlock/conflict") was
 * rolled back whole by the server, so it is sent again, a few times, instead of failing its
 * request. Inside a transaction the whole transaction is retried instead (transaction.ts), so
 * each connection keeps track of whether one is open (Knex opens them with BEGIN and ends them
 * with COMMIT or ROLLBACK).
 */

const openTransactions = new WeakSet<object>();

/** Records the transaction state after `sql` ran on `conn` (successfully or not). */
export function trackTransaction(conn: object, sql: unknown): void {
  if (typeof sql !== 'string') return;
  if (/^\s*(BEGIN|START\s+TRANSACTION)\b/i.test(sql)) openTransactions.add(conn);
  else if (/^\s*(COMMIT|ROLLBACK)\b(?!\s+TO\b)/i.test(sql)) openTransactions.delete(conn);
}

/** Attempts of one autocommit statement against conflicts. */
export const AUTOCOMMIT_CONFLICT_ATTEMPTS = 5;

/** Whether a failed statement may be sent again as it is; `attempt` counts from 1. */
export function retriesAutocommitConflict(conn: object, error: { code?: string } | null, attempt: number): boolean {
  return error?.code === 'ER_LOCK_DEADLOCK' && !openTransactions.has(conn) && attempt < AUTOCOMMIT_CONFLICT_ATTEMPTS;
}

/** A short random pause before the next attempt, growing with the attempts. */
export function conflictBackoffMs(attempt: number): number {
  return attempt * 10 + Math.random() * 20;
}
