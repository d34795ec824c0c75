import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { inTransaction } from '../../src/storage/transaction.js';
import { testDatabases } from '../support/databases.js';

const mariadb = testDatabases.find((db) => db.name === 'mariadb');

/**
 * A deadlock inside a savepoint (a service's own transaction within a flags-as-code apply) rolls
 * back the whole transaction. Only the outermost transaction may then run again: retrying the
 * savepoint alone ran it outside any transaction, so a request refused afterwards kept its writes.
 */
describe.runIf(mariadb)('a deadlock inside a nested transaction [mariadb]', () => {
  let database: { url: string; drop(): Promise<void> };
  let knex: ReturnType<typeof openDatabase>['knex'];
  let other: ReturnType<typeof openDatabase>['knex'];

  beforeAll(async () => {
    database = await mariadb!.create();
    knex = openDatabase(database.url).knex;
    other = openDatabase(database.url).knex;
    await knex.schema.createTable('counters', (t) => {
      t.string('name').primary();
      t.integer('value').notNullable();
    });
    await knex('counters').insert([
      { name: 'a', value: 0 },
      { name: 'b', value: 0 },
      ...Array.from({ length: 50 }, (_, i) => ({ name: `pad-${i}`, value: 0 })),
    ]);
  });
  afterAll(async () => {
    await knex?.destroy();
    await other?.destroy();
    await database?.drop();
  });

  it('retries the outermost transaction, so a refusal after it leaves nothing written', async () => {
    let attempts = 0;
    let rival: Promise<unknown> | undefined;
    const refusal = new Error('refused after the nested work');
    const outcome = inTransaction(knex, async (trx) => {
      attempts++;
      await inTransaction(trx, async (nested) => {
        await nested('counters').where('name', 'a').increment('value', 1);
        if (attempts === 1) {
          // A rival that changed more rows holds b and waits for a: this transaction, the
          // lighter one, is the deadlock's victim when it asks for b.
          let holdsB!: () => void;
          const locked = new Promise<void>((resolve) => (holdsB = resolve));
          rival = other.transaction(async (r) => {
            await r('counters').where('name', 'like', 'pad-%').increment('value', 1);
            await r('counters').where('name', 'b').increment('value', 1);
            holdsB();
            await r('counters').where('name', 'a').increment('value', 1);
          });
          await locked;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        await nested('counters').where('name', 'b').increment('value', 1);
      });
      throw refusal;
    });
    await expect(outcome).rejects.toBe(refusal);
    await rival;
    expect(attempts).toBe(2);
    // Only the rival's writes: each of a and b once, none of the refused transaction's.
    const values = Object.fromEntries(
      (await knex('counters').whereIn('name', ['a', 'b']).select('name', 'value')).map((r) => [r.name, r.value]),
    );
    expect(values).toEqual({ a: 1, b: 1 });
  });
});
