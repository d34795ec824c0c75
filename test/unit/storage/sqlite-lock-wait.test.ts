import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/storage/database.js';
import { isDatabaseUnavailable, isRetryableConflict } from '../../../src/storage/db-errors.js';
import { execute } from '../../../src/storage/prepared-sql.js';
import { DatabaseLockedError, retryWhileLocked } from '../../../src/storage/sqlite-lock-wait.js';

interface SqliteConnection {
  exec(sql: string): void;
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteConnection;
const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('retryWhileLocked', () => {
  it('tries again while SQLite answers busy, and succeeds once it does not', async () => {
    let tries = 0;
    const result = await retryWhileLocked(async () => {
      tries += 1;
      if (tries < 3) throw busy();
      return 'done';
    }, 1000);
    expect([result, tries]).toEqual(['done', 3]);
  });

  it('gives up after the wait with an error that answers 503 and is not retried again', async () => {
    const started = Date.now();
    const error = await retryWhileLocked(async () => {
      throw busy();
    }, 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseLockedError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isRetryableConflict(error)).toBe(false);
  });

  it('passes other errors on at once', async () => {
    let tries = 0;
    const error = await retryWhileLocked(async () => {
      tries += 1;
      throw new Error('no such table');
    }, 1000).catch((e: unknown) => e);
    expect([(error as Error).message, tries]).toEqual(['no such table', 1]);
  });
});

describe('SQLite writes while another connection holds the write lock', () => {
  let dir: string;
  let knex: Knex;
  let other: SqliteConnection;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-lock-'));
    knex = openDatabase(`sqlite:${dir}/lock.db`, { acquireMs: 1000, queryMs: 1000, lockWaitMs: 600 }).knex;
    await knex.schema.createTable('t', (table) => table.integer('n'));
    other = new Database(`${dir}/lock.db`);
    other.exec('BEGIN IMMEDIATE');
  });
  afterEach(async () => {
    try {
      other.exec('ROLLBACK');
    } catch {
      // released by the test
    }
    other.close();
    await knex.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The longest the event loop went without running a 5 ms timer while `work` ran. */
  async function longestStall(work: () => Promise<unknown>): Promise<number> {
    let last = Date.now();
    let longest = 0;
    const timer = setInterval(() => {
      longest = Math.max(longest, Date.now() - last);
      last = Date.now();
    }, 5);
    try {
      await work().catch(() => undefined);
    } finally {
      clearInterval(timer);
    }
    return longest;
  }

  it('waits without blocking the event loop, reads go on, and a statement, a transaction and a prepared statement fail with DatabaseLockedError after the wait', async () => {
    for (const write of [
      () => knex('t').insert({ n: 1 }),
      () => knex.transaction((trx) => trx('t').insert({ n: 2 })),
      () => execute(knex, 'INSERT INTO t (n) VALUES (?)', [3]),
    ]) {
      const pending = write();
      const failure = pending.then(
        () => undefined,
        (e: unknown) => e,
      );
      // Reads are answered while the write waits.
      expect(await knex('t').count({ c: '*' })).toEqual([{ c: 0 }]);
      // SQLite's own busy wait used to hold the loop for the whole wait (600 ms here); a loaded machine adds its own pauses.
      expect(await longestStall(() => failure)).toBeLessThan(300);
      expect(await failure).toBeInstanceOf(DatabaseLockedError);
    }
    expect(await knex('t').count({ c: '*' })).toEqual([{ c: 0 }]);
  });

  it('completes a write whose lock is released within the wait', async () => {
    setTimeout(() => other.exec('ROLLBACK'), 150);
    await knex.transaction(async (trx) => {
      await trx('t').insert({ n: 1 });
      await trx('t').insert({ n: 2 });
    });
    expect(await knex('t').orderBy('n').pluck('n')).toEqual([1, 2]);
  });
});
