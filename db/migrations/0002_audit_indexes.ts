import type { Knex } from 'knex';

/**
 * Indexes for the public audit log's filters that 0001 lacks. Every audit filter is an equality
 * followed by keyset order on ulid, so each has a `(column, ulid)` index: a page deep in a
 * million entries reads as few rows as the first page.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('public_audit_entries', (t) => {
    t.index(['subject_type', 'ulid'], 'public_audit_entries_subject_type_ulid_index');
    t.index(['actor_ulid', 'ulid'], 'public_audit_entries_actor_ulid_ulid_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('public_audit_entries', (t) => {
    t.dropIndex(['subject_type', 'ulid'], 'public_audit_entries_subject_type_ulid_index');
    t.dropIndex(['actor_ulid', 'ulid'], 'public_audit_entries_actor_ulid_ulid_index');
  });
}
