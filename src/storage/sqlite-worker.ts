import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';
import type { AppendStatement } from './statement.js';

/**
 * SQLite's background thread: WAL checkpoints, and the appends of the public audit trail.
 *
 * better-sqlite3 is synchronous: whatever the serving connection runs, the event loop (and every
 * request with it) waits for. Two kinds of work are moved to a worker thread with a connection of
 * its own:
 * - Checkpoints. With the default automatic checkpoint, the connection whose commit takes the WAL
 *   past 1,000 pages copies it into the database file before returning (10 to 30 ms for a busy
 *   audit trail's WAL on this project's 2-core test machine). So the server's own connection
 *   never checkpoints (wal_autocheckpoint 0) and the worker checkpoints on an interval.
 * - Appends (`append`): the statements that write rows nothing on the serving thread reads back
 *   at once, the public audit trail (one row per public request), run here in one transaction.
 *   On the serving thread the inserts would cost a good part of what answering the requests
 *   they record costs; on the worker they cost it one message per batch. A batch refused here (a
 *   lock held elsewhere past the wait, a full disk) changed nothing and is retried whole by its
 *   caller.
 * When the worker cannot run, the connection checkpoints as SQLite would by itself again and
 * appends run on the serving connection (`fallBack`).
 */

/** How often the worker checkpoints. A second of audit entries at 10,000 requests a second is a few MB of WAL. */
const CHECKPOINT_INTERVAL_MS = 250;

/** How long the worker waits for a lock the server holds (a RESTART checkpoint, an append). */
const LOCK_WAIT_MS = 1000;

/**
 * The worker connection's page cache (KiB; SQLite's default is 2,000). What it buys: the index
 * pages every 1,024-row INSERT goes through stay cached instead of being read back from the
 * file. Measured on the 2-core test machine, scenario 1 against the same build with the default
 * cache, the two servers taking turns: 1.16 times the requests a second (the median of three
 * runs of eight turns); alone, the worker's CPU per row fell from 7.9 to 7.3 µs. It costs up to
 * 64 MB once the audit trail has grown that much.
 */
const WORKER_CACHE_KIB = 65_536;

/** Automatic checkpoint size (pages) SQLite uses by default, restored when the worker cannot run. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

// The worker's code, evaluated as a CommonJS script: no separate file to find from dist/ or from
// the TypeScript sources tests run on. It loads the same better-sqlite3 as the server.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// This thread may wait: a RESTART checkpoint or an append waits here for the server's writer.
db.pragma('busy_timeout = ' + workerData.lockWaitMs);
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
db.pragma('cache_size = -' + workerData.cacheKiB);
const checkpoint = () => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    // Under a steady stream of writes a PASSIVE checkpoint never finds the WAL whole, so the WAL
    // is never started again and grows without end. Past the size SQLite itself checkpoints at,
    // RESTART copies the rest holding the write lock for a moment (the server's writes wait for it
    // asynchronously) and lets the next write start the WAL from its beginning.
    if (passive.log >= workerData.restartPages) db.pragma('wal_checkpoint(RESTART)');
  } catch (error) {
    // Busy: the server holds the lock; the next interval tries again.
    if (error && typeof error.code === 'string' && error.code.startsWith('SQLITE_BUSY')) return;
    parentPort.postMessage({ failed: String((error && error.code) || error) });
  }
};
const prepared = new Map();
const statementOf = (sql) => {
  let statement = prepared.get(sql);
  if (!statement) {
    if (prepared.size >= 64) prepared.clear();
    statement = db.prepare(sql);
    prepared.set(sql, statement);
  }
  return statement;
};
const runAll = db.transaction((statements) => {
  for (const { sql, values } of statements) statementOf(sql).run(values);
});
const append = ({ id, json }) => {
  try {
    runAll(JSON.parse(json));
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String((error && error.message) || error), code: error && error.code } });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return append(message);
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface SqliteWorker {
  /**
   * Runs the statements on the worker's connection, in one transaction; undefined when the
   * worker is not running (the caller runs them itself). Rejects with the driver's error (its
   * `code` kept) when refused.
   */
  append(statements: readonly AppendStatement[]): Promise<void> | undefined;
  /** Ends the worker after one last checkpoint (awaited; at most a second). Appends sent before are run. */
  stop(): Promise<void>;
}

export interface SqliteWorkerOptions {
  file: string;
  /** Called once when the worker cannot start or ends by itself: the caller checkpoints inline again. */
  fallBack: (reason: string) => void;
  intervalMs?: number;
}

interface Reply {
  id?: number;
  failed?: string;
  error?: { message: string; code?: string };
}

export function startSqliteWorker(options: SqliteWorkerOptions): SqliteWorker {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let stopping = false;
  let running = true;
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const fallBack = (reason: string) => {
    if (!running) return;
    running = false;
    // Appends the worker will never answer: their callers keep the rows and try again.
    for (const waiting of pending.values()) waiting.reject(new Error(`the SQLite worker ended: ${reason}`));
    pending.clear();
    if (!stopping) options.fallBack(reason);
  };
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      driver,
      file: options.file,
      intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
      restartPages: SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES,
      lockWaitMs: LOCK_WAIT_MS,
      cacheKiB: WORKER_CACHE_KIB,
    },
  });
  // The worker never keeps the process alive: a server that ends without stop() still exits.
  worker.unref();
  worker.on('message', (message: Reply) => {
    if (message.failed) return fallBack(`checkpoint failed: ${message.failed}`);
    if (message.id === undefined) return;
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (!waiting) return;
    if (!message.error) return waiting.resolve();
    const error = Object.assign(new Error(message.error.message), { code: message.error.code });
    waiting.reject(error);
  });
  worker.on('error', (error) => fallBack(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => fallBack('the SQLite worker ended'));
  return {
    append(statements) {
      if (!running || stopping) return undefined;
      const id = ++nextId;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // As one JSON text: cloning a string costs a copy, cloning an array of thousands of values
        // many times more (the structured clone walks every value).
        worker.postMessage({ id, json: JSON.stringify(statements) });
      });
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 1000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The worker of each SQLite Knex instance's client, once started (appends run there: prepared-sql.ts). */
const workers = new WeakMap<object, () => SqliteWorker | undefined>();

export function registerSqliteWorker(knex: Knex, worker: () => SqliteWorker | undefined): void {
  workers.set(knex.client as object, worker);
}

/** The worker thread of `db`'s SQLite database file; undefined inside a transaction, on MySQL and in memory. */
export function sqliteWorkerOf(db: Knex | Knex.Transaction): SqliteWorker | undefined {
  if (db.isTransaction === true) return undefined;
  return workers.get(db.client as object)?.();
}
