import type { Knex } from 'knex';

/**
 * Tags on flags: a JSON array of lower-case labels (at most 20 of 50 characters, so 1,100
 * characters hold any list). A tag's characters never need escaping in JSON, so the list
 * filter finds `"tag"` in the text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('flags', (t) => {
    t.string('tags', 1100).notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('flags', (t) => {
    t.dropColumn('tags');
  });
}
