import type { Knex } from 'knex';

/**
 * A subscription's previous signing secret after a rotation, sealed like the current one, and
 * the end of its grace period: until then every delivery is signed with both.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.string('previous_secret_sealed', 400).nullable();
    t.string('previous_secret_until', 24).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropColumn('previous_secret_sealed');
    t.dropColumn('previous_secret_until');
  });
}
