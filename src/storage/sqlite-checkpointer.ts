import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's WAL checkpoints, run on a worker thread.
 *
 * With the default automatic checkpoint, the connection whose commit takes the WAL past 1,000
 * pages copies it into the database file before returning, and better-sqlite3 is synchronous:
 * the event loop, and every request with it, waits for the copy (10 to 30 ms for a busy audit
 * trail's WAL on this project's 2-core test machine). So the server's own connection never
 * checkpoints (wal_autocheckpoint 0) and a worker thread with a connection of its own checkpoints
 * the WAL in the background (see the worker's comments for the modes). When the worker cannot
 * run, the connection checkpoints as SQLite would by itself again (`fallBack`).
 */

/** How often the worker checkpoints. A second of audit entries at 10,000 requests a second is a few MB of WAL. */
const CHECKPOINT_INTERVAL_MS = 250;

/** How long a RESTART checkpoint waits for the server's writer before trying again at the next interval. */
const RESTART_WAIT_MS = 1000;

/** Automatic checkpoint size (pages) SQLite uses by default, restored when the worker cannot run. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

// The worker's code, evaluated as a CommonJS script: no separate file to find from dist/ or from
// the TypeScript sources tests run on. It loads the same better-sqlite3 as the server.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// This thread may wait: a RESTART checkpoint waits here for the server's writer to finish.
db.pragma('busy_timeout = ' + workerData.restartWaitMs);
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
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Ends the worker after one last checkpoint (awaited; at most a second). */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  file: string;
  /** Called once when the worker cannot start or ends by itself: the caller checkpoints inline again. */
  fallBack: (reason: string) => void;
  intervalMs?: number;
}

export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let stopping = false;
  let fellBack = false;
  const fallBack = (reason: string) => {
    if (fellBack || stopping) return;
    fellBack = true;
    options.fallBack(reason);
  };
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      driver,
      file: options.file,
      intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
      restartPages: SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES,
      restartWaitMs: RESTART_WAIT_MS,
    },
  });
  // The worker never keeps the process alive: a server that ends without stop() still exits.
  worker.unref();
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) fallBack(`checkpoint failed: ${message.failed}`);
  });
  worker.on('error', (error) => fallBack(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => fallBack('the checkpoint worker ended'));
  return {
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
