import type { Knex } from 'knex';

/** The cheapest statement every database answers: whether a connection can be had and used. */
export async function ping(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}
