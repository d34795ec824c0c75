import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../src/storage/database.js';
import { append, execute, insertText } from '../../../src/storage/prepared-sql.js';
import { sqliteWorkerOf, startSqliteWorker } from '../../../src/storage/sqlite-worker.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rows of an `id` of their own and the shared `text`. */
/** One INSERT of `ids`, each row with `text`. */
const rowsOf = (ids: string[], text = 'text') => ({
  sql: insertText('entries', ['id', 'text'], ids.length),
  values: ids.flatMap((id) => [id, text]),
});

describe('SQLite work on a worker thread: WAL checkpoints and appends', () => {
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
    // Bounded below the 20 MB written (the worker checkpoints every 250 ms; a loaded machine may let
    // it fall behind for a while, hence the margin: 10.9 MB was seen with the machine busy).
    expect(largestWal).toBeLessThan(15 * 1024 * 1024);
    expect(warnings).toEqual([]);
  });

  it('hands checkpoints back to the connection when the worker cannot run', async () => {
    const reasons: string[] = [];
    const worker = startSqliteWorker({
      file: path.join(os.tmpdir(), `vexil-no-such-database-${process.pid}.db`),
      fallBack: (reason) => reasons.push(reason),
    });
    for (let waited = 0; reasons.length === 0 && waited < 30_000; waited += 50) await sleep(50);
    expect(worker.append([rowsOf(['a'])])).toBeUndefined();
    await worker.stop();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/unable to open|does not exist|SQLITE_CANTOPEN|ended/i);
  });

  it('checkpoints inline on an in-memory database, which has no file for a worker', async () => {
    db = openDatabase('sqlite::memory:');
    expect(await db.knex.raw('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 1000 }]);
  });

  it('runs appends on the worker: the serving connection runs no statement for them', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-append-'));
    db = openDatabase(`sqlite:${path.join(dir, 'vexil.db')}`);
    const { knex } = db;
    await knex.schema.createTable('entries', (t) => {
      t.string('id').primary();
      t.string('text');
    });
    expect(sqliteWorkerOf(knex)).toBeDefined();
    const statements: string[] = [];
    knex.on('query', (query: { sql: string }) => statements.push(query.sql));
    const ids = Array.from({ length: 100 }, (_, i) => `id-${i}`);
    await append(knex, [rowsOf(ids.slice(0, 40)), rowsOf(ids.slice(40))]);
    expect(statements).toEqual([]);
    expect(await knex('entries').count({ n: '*' })).toEqual([{ n: 100 }]);
    expect(await knex('entries').where({ id: 'id-42' }).first()).toEqual({ id: 'id-42', text: 'text' });

    // A refused append rejects with the driver's code and changes nothing: its statements run in
    // one transaction, so the first one's rows are gone with the second one's failure.
    await expect(append(knex, [rowsOf(['id-100', 'id-101']), rowsOf(['id-102', 'id-0'])])).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
    expect(await knex('entries').count({ n: '*' })).toEqual([{ n: 100 }]);
  });

  it('appends on the serving connection when there is no worker (in memory, in a transaction)', async () => {
    db = openDatabase('sqlite::memory:');
    const { knex } = db;
    await knex.schema.createTable('entries', (t) => {
      t.string('id').primary();
      t.string('text');
    });
    expect(sqliteWorkerOf(knex)).toBeUndefined();
    await append(knex, [rowsOf(['a']), rowsOf(['b'], 'here')]);
    expect(await knex('entries').orderBy('id')).toEqual([
      { id: 'a', text: 'text' },
      { id: 'b', text: 'here' },
    ]);
  });
});
