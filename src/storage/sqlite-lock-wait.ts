import type { Knex } from 'knex';

/**
 * Waiting for another process's write lock on SQLite without stalling the process.
 *
 * better-sqlite3 is synchronous: SQLite's own busy wait (busy_timeout) holds the event loop for
 * as long as another process (a backup, the sqlite3 shell, a migration run by hand) keeps the
 * write lock, and with it every request. So SQLite does not wait at all (busy_timeout 0), and a
 * write that finds the lock taken is tried again later, asynchronously, with the connection
 * given back meanwhile (reads and evaluations go on), until the lock is free or the wait
 * (VEXIL_SQLITE_LOCK_WAIT_MS) is over: then DatabaseLockedError, a 503 `database_unavailable`.
 * Writes waiting together wait in line: only the first tries again, so a few dozen of them cost
 * no more than one.
 * Transactions begin IMMEDIATE, taking the write lock at BEGIN: a transaction that gets it never
 * meets the lock later, and one that does not has run nothing and can simply be begun again.
 */

/**
 * SQLite's own (blocking) busy wait per statement, in ms: none. Even 2 ms added up to a stalled
 * process with a few dozen writes waiting (each try blocked the loop for its busy wait); a
 * refused try costs microseconds and the waiting is done here, asynchronously.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 0;

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

/** The writes of one database waiting for its lock, in line: each waits for the one before to finish. */
export class LockLine {
  last: Promise<void> = Promise.resolve();
}

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY, for `waitMs` at most. After a refusal
 * it waits its turn in `line`, then tries again with growing pauses while its time lasts.
 */
export async function retryWhileLocked<T>(attempt: () => Promise<T>, waitMs: number, line = new LockLine()): Promise<T> {
  const started = Date.now();
  let refusal: unknown;
  try {
    return await attempt();
  } catch (error) {
    if (!isSqliteBusy(error)) throw error;
    refusal = error;
  }
  let release!: () => void;
  const turn = new Promise<void>((resolve) => (release = resolve));
  const before = line.last;
  line.last = before.then(() => turn);
  try {
    const left = started + waitMs - Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const myTurn = await Promise.race([
      before.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, left)))),
    ]);
    clearTimeout(timer);
    if (!myTurn) throw new DatabaseLockedError(waitMs, { cause: refusal });
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        return await attempt();
      } catch (error) {
        if (!isSqliteBusy(error)) throw error;
        const remaining = started + waitMs - Date.now();
        if (remaining <= 0) throw new DatabaseLockedError(waitMs, { cause: error });
        await sleep(Math.min(remaining, pause));
      }
    }
  } finally {
    release();
  }
}

/** The lock wait and line of each SQLite Knex instance's client, for statements run beside Knex (prepared-sql.ts). */
const lockWaits = new WeakMap<object, { waitMs: number; line: LockLine }>();

/** How statements on `db` (a Knex instance or transaction) wait for a lock; undefined when they need not. */
export function lockWaitOf(db: Knex | Knex.Transaction): { waitMs: number; line: LockLine } | undefined {
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
  const line = new LockLine();
  lockWaits.set(client, { waitMs, line });
  const runner = client.runner.bind(client);
  client.runner = (builder) => {
    const made = runner(builder);
    if (builder._connection !== undefined) return made;
    const run = made.run.bind(made);
    made.run = () =>
      retryWhileLocked(
        () => {
          // A new try acquires the connection again (the runner keeps the one it used).
          made.connection = undefined;
          return run();
        },
        waitMs,
        line,
      );
    return made;
  };
  const transaction = knex.transaction.bind(knex);
  const waiting = (container?: unknown, config?: unknown) => {
    if (typeof container !== 'function') return transaction(container as never, config as never);
    return retryWhileLocked(() => transaction(container as never, config as never), waitMs, line);
  };
  // Knex defines its methods as read-only (but configurable) properties.
  Object.defineProperty(knex, 'transaction', { value: waiting, configurable: true });
}
