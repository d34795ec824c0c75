import type { Knex } from 'knex';

/**
 * Waiting for another process's write lock on SQLite without stalling the process.
 *
 * better-sqlite3 is synchronous: SQLite's own busy wait (busy_timeout) holds the event loop for
 * as long as another process (a backup, the sqlite3 shell, a migration run by hand) keeps the
 * write lock, and with it every request. So SQLite's wait is kept to a few milliseconds, and a
 * write that finds the lock taken is tried again later, asynchronously, with the connection
 * given back meanwhile (reads and evaluations go on), until the lock is free or the wait
 * (VEXIL_SQLITE_LOCK_WAIT_MS) is over: then DatabaseLockedError, a 503 `database_unavailable`.
 * Transactions begin IMMEDIATE, taking the write lock at BEGIN: a transaction that gets it never
 * meets the lock later, and one that does not has run nothing and can simply be begun again.
 */

/** SQLite's own (blocking) busy wait per statement, in ms: short enough never to stall answers. */
export const SQLITE_BUSY_TIMEOUT_MS = 2;

/** The lock was still held elsewhere when the wait ended (isDatabaseUnavailable: a 503). */
export class DatabaseLockedError extends Error {
  readonly code = 'SQLITE_LOCK_WAIT_EXCEEDED';
  constructor(waitedMs: number, options?: { cause?: unknown }) {
    super(`the SQLite database stayed locked by another connection for ${waitedMs} ms`, options);
    this.name = 'DatabaseLockedError';
  }
}

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it does not fail with SQLITE_BUSY, waiting between tries, for `waitMs` at most. */
export async function retryWhileLocked<T>(attempt: () => Promise<T>, waitMs: number): Promise<T> {
  const started = Date.now();
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      const left = started + waitMs - Date.now();
      if (left <= 0) throw new DatabaseLockedError(waitMs, { cause: error });
      // Jitter, so that writers waiting together do not all try at the same moment.
      await sleep(Math.min(left, pause * (0.5 + Math.random())));
    }
  }
}

/** The lock wait of each SQLite Knex instance's client, for statements run beside Knex (prepared-sql.ts). */
const lockWaits = new WeakMap<object, number>();

/** How long statements on `db` (a Knex instance or transaction) wait for a lock; undefined when they need not. */
export function lockWaitOf(db: Knex | Knex.Transaction): number | undefined {
  if (db.isTransaction === true) return undefined;
  return lockWaits.get(db.client as object);
}

interface SqliteConnection {
  prepare(sql: string): unknown;
}

/** Knex's transactions begin with "BEGIN;": on SQLite they take the write lock at once. */
export function beginImmediate(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  conn.prepare = (sql: string) => prepare(sql === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : sql);
}

interface RunnerClient {
  runner(builder: { _connection?: unknown }): { connection: unknown; run(): Promise<unknown> };
}

/**
 * Makes every statement and transaction of `knex` (SQLite) wait for a lock asynchronously.
 * Statements outside a transaction are run again whole (a refused statement changed nothing);
 * a transaction whose BEGIN IMMEDIATE is refused is begun again (its work ran no statement:
 * Knex refuses every query of a transaction whose BEGIN failed). Transactions' own clients are
 * built from Knex's prototype, so the runner patched here serves statements outside them only.
 */
export function waitOutLocks(knex: Knex, waitMs: number): void {
  const client = knex.client as RunnerClient;
  lockWaits.set(client, waitMs);
  const runner = client.runner.bind(client);
  client.runner = (builder) => {
    const made = runner(builder);
    if (builder._connection !== undefined) return made;
    const run = made.run.bind(made);
    made.run = () =>
      retryWhileLocked(() => {
        // A new try acquires the connection again (the runner keeps the one it used).
        made.connection = undefined;
        return run();
      }, waitMs);
    return made;
  };
  const transaction = knex.transaction.bind(knex);
  const waiting = (container?: unknown, config?: unknown) => {
    if (typeof container !== 'function') return transaction(container as never, config as never);
    return retryWhileLocked(() => transaction(container as never, config as never), waitMs);
  };
  // Knex defines its methods as read-only (but configurable) properties.
  Object.defineProperty(knex, 'transaction', { value: waiting, configurable: true });
}
