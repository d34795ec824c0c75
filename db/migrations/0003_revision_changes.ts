import type { Knex } from 'knex';

/**
 * What each environment revision changed: one row per (revision, flag), or a row with no flag
 * when the whole environment must be reloaded (segments). Snapshot caches read the rows between
 * the revision they hold and the current one and reload only those flags; a revision without a
 * row (older data, pruned rows) means a full reload.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('revision_changes', (t) => {
    t.increments('id').primary();
    t.string('environment_ulid', 40).notNullable().references('environments.ulid').onDelete('CASCADE');
    t.bigInteger('revision').notNullable();
    t.string('flag_ulid', 40).nullable();
    t.index(['environment_ulid', 'revision'], 'revision_changes_environment_revision_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('revision_changes');
}
