import type { Knex } from 'knex';

/**
 * The request that wrote each management audit entry: its id (`req_` ulid), shared by every
 * entry one request writes (a promote, an apply, a serve write several), and the action of its
 * operation, so the audit log can show one change a person made as one line. Null for system
 * actions and for entries written before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_entries', (t) => {
    t.string('request_ulid', 40).nullable();
    t.string('request_action', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_entries', (t) => {
    t.dropColumn('request_ulid');
    t.dropColumn('request_action');
  });
}
