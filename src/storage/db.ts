import type { Knex } from 'knex';

/** What a store's reads take: the pool, or the transaction the write runs in. */
export type Db = Knex | Knex.Transaction;

/** Whether `db` is a transaction (where a read may take row locks), not the pool. */
export function isTransaction(db: Db): db is Knex.Transaction {
  return db.isTransaction === true;
}
