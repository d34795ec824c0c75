import type { Knex } from 'knex';

/**
 * What a change changed: the subject before and after, and the publish comment, as JSON. Read
 * by the audit log and carried by the change's webhook events (one change record for both).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_entries', (t) => {
    t.text('changes', 'mediumtext').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_entries', (t) => {
    t.dropColumn('changes');
  });
}
