import type { Knex } from 'knex';

/**
 * Drops the `created_at` indexes of both audit tables. Nothing reads by them: the audit log's
 * `from`/`to` filters and the retention job work on ulid ranges (audit ulids carry their creation
 * time), and every other filter has its own `(column, ulid)` index. Each index is one more
 * B-tree written per entry, and public API traffic writes an entry per request.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['audit_entries', 'public_audit_entries']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(['created_at'], `${table}_created_at_index`);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['audit_entries', 'public_audit_entries']) {
    await knex.schema.alterTable(table, (t) => {
      t.index(['created_at'], `${table}_created_at_index`);
    });
  }
}
