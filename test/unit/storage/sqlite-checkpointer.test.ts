import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/storage/database.js';
import { startCheckpointer } from '../../../src/storage/sqlite-checkpointer.js';
import { execute, insertText } from '../../../src/storage/prepared-sql.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite WAL checkpoints on a worker thread', () => {
  let dir: string | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await db?.knex.destroy();
    db = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the WAL bounded although the serving connection never checkpoints', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-checkpoint-'));
    const file = path.join(dir, 'vexil.db');
    const warnings: string[] = [];
    db = openDatabase(`sqlite:${file}`, undefined, (message) => warnings.push(message));
    const { knex } = db;
    await knex.schema.createTable('entries', (t) => {
      t.string('id').primary();
      t.string('text');
    });
    // The serving connection leaves checkpoints to the worker.
    expect(await knex.raw('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 0 }]);

    // About 20 MB written in 100-row batches, with pauses as a serving process has them. Without
    // any checkpoint the WAL would hold all of it; SQLite's inline default keeps it near 4 MB.
    const text = 'x'.repeat(600);
    let id = 0;
    let largestWal = 0;
    for (let round = 0; round < 160; round++) {
      for (let batch = 0; batch < 2; batch++) {
        const values: string[] = [];
        for (let i = 0; i < 100; i++) values.push(String(++id).padStart(12, '0'), text);
        await execute(knex, insertText('entries', ['id', 'text'], 100), values);
      }
      largestWal = Math.max(largestWal, fs.statSync(`${file}-wal`).size);
      await sleep(10);
    }
    expect(await knex('entries').count({ n: '*' })).toEqual([{ n: 32_000 }]);
    // Bounded well below the 20 MB written (the worker checkpoints every 250 ms; a loaded machine
    // may let it fall behind for a while, hence the margin).
    expect(largestWal).toBeLessThan(10 * 1024 * 1024);
    expect(warnings).toEqual([]);
  });

  it('hands checkpoints back to the connection when the worker cannot run', async () => {
    const reasons: string[] = [];
    const checkpointer = startCheckpointer({
      file: path.join(os.tmpdir(), `vexil-no-such-database-${process.pid}.db`),
      fallBack: (reason) => reasons.push(reason),
    });
    for (let waited = 0; reasons.length === 0 && waited < 30_000; waited += 50) await sleep(50);
    await checkpointer.stop();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/unable to open|does not exist|SQLITE_CANTOPEN|ended/i);
  });

  it('checkpoints inline on an in-memory database, which has no file for a worker', async () => {
    db = openDatabase('sqlite::memory:');
    expect(await db.knex.raw('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 1000 }]);
  });
});
