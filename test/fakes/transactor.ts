import type { Knex } from 'knex';
import type { Transactor } from '../../src/features/shared/transactions.js';

/** What a fake store's methods are given as their `Db`: the fakes keep their rows in memory and never read it. */
export const fakeDb = {} as Knex;
const fakeTrx = {} as Knex.Transaction;

/**
 * A Transactor over a fake's state, all or nothing like the database: `save` keeps the state
 * and returns what puts it back, which runs when the work fails.
 */
export function fakeTransactor(save: () => () => void): Transactor {
  return {
    async transaction(work) {
      const restore = save();
      try {
        return await work(fakeTrx);
      } catch (error) {
        restore();
        throw error;
      }
    },
  };
}
