import type { Knex } from 'knex';

/** What a store's reads take: the pool, or the transaction the write runs in. */
export type Db = Knex | Knex.Transaction;
