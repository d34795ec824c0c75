import type { Knex } from 'knex';

/**
 * The number of public API requests an entry stands for: 1, except in the `aggregate` mode of
 * VEXIL_PUBLIC_AUDIT, where one entry holds a minute's requests of one key and subject.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('public_audit_entries', (t) => {
    t.integer('count').notNullable().defaultTo(1);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('public_audit_entries', (t) => {
    t.dropColumn('count');
  });
}
