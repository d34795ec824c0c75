import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/storage/database.js';
import { execute, selectArrays } from '../../../src/storage/prepared-sql.js';

describe('SQLite prepared-statement cache', () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.knex.destroy();
  });

  it('reuses one statement per SQL text and hands it out in object mode after an array read', async () => {
    db = openDatabase('sqlite::memory:');
    const { knex } = db;
    await knex.schema.createTable('things', (t) => {
      t.string('name');
      t.integer('n');
    });
    await execute(knex, 'INSERT INTO `things` (`name`, `n`) VALUES (?, ?), (?, ?)', ['a', 1, 'b', 2]);
    const text = knex('things').select('name', 'n').orderBy('name').toString();

    const connection = (await knex.client.acquireConnection()) as { prepare(sql: string): unknown };
    try {
      expect(connection.prepare('SELECT 1')).toBe(connection.prepare('SELECT 1'));
    } finally {
      await knex.client.releaseConnection(connection);
    }

    expect(await selectArrays(knex, text, [])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    // The same text through Knex: objects, not the arrays the previous user asked for.
    expect(await knex.raw(text)).toEqual([
      { name: 'a', n: 1 },
      { name: 'b', n: 2 },
    ]);
    expect(await selectArrays(knex, text, [])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });
});
