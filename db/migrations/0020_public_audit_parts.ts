import type { Knex } from 'knex';
import { publicAuditColumns } from '../../src/audit/audit-columns.js';
import { partColumns, publicAuditPartId, type PartValue } from '../../src/audit/public-audit-parts.js';

/**
 * The public audit trail in two tables: what requests share once (`public_audit_parts`), and a
 * narrow row per request (`public_audit_requests`: ulid, time, count, part id) with one index.
 * A request's row had thirteen repeated columns and six secondary indexes, the largest single
 * cost of answering a public request (bench/results/serving-path.md). The view
 * `public_audit_entries` reads as the table did. Existing entries are moved.
 */
const MOVE_BATCH = 2000;

/** The columns requests share (a part's values), as the wide table of migration 0001 had them. */
function sharedColumns(t: Knex.CreateTableBuilder): void {
  t.string('actor_type', 32).notNullable();
  t.string('actor_ulid', 40).nullable();
  t.string('environment_ulid', 40).nullable();
  t.string('environment_key', 200).nullable();
  t.string('project_ulid', 40).nullable();
  t.string('http_method', 8).notNullable();
  t.string('http_path', 2000).notNullable();
  t.string('action', 64).notNullable();
  t.string('subject_type', 32).nullable();
  t.string('subject_ulid', 40).nullable();
  t.string('subject_label', 400).nullable();
  t.string('result', 32).notNullable();
  t.integer('status_code').notNullable();
}

export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  const binary = (t: Knex.CreateTableBuilder) => {
    if (mysql) {
      t.charset('utf8mb4');
      t.collate('utf8mb4_bin');
    }
  };
  await knex.schema.createTable('public_audit_parts', (t) => {
    binary(t);
    t.string('id', 32).primary();
    // When a request last used this part (the newest time a writer saw): retention deletes parts
    // unused for longer than it keeps requests.
    t.string('last_seen_at', 24).notNullable();
    sharedColumns(t);
    // A filtered page of the public log reads the matching parts first: by flag, and by project
    // (a restricted caller's, or the project filter). Parts are written once each, so these cost
    // the writers little; without them every filtered page reads every part.
    t.index(['subject_ulid']);
    t.index(['project_ulid']);
  });
  await knex.schema.createTable('public_audit_requests', (t) => {
    binary(t);
    t.string('ulid', 40).primary();
    t.string('created_at', 24).notNullable();
    t.integer('count').notNullable().defaultTo(1);
    t.string('part_id', 32).notNullable();
    t.index(['part_id', 'ulid']);
  });

  const parts = new Map<string, { values: PartValue[]; lastSeenAt: string }>();
  let after = '';
  for (;;) {
    const rows = (await knex('public_audit_entries')
      .where('ulid', '>', after)
      .orderBy('ulid')
      .limit(MOVE_BATCH)
      .select(...publicAuditColumns)) as Array<Record<string, PartValue>>;
    if (rows.length === 0) break;
    const requests = rows.map((row) => {
      const values = partColumns.map((column) => (column === 'status_code' ? Number(row[column]) : (row[column] ?? null)));
      const id = publicAuditPartId(values);
      const createdAt = row.created_at as string;
      const part = parts.get(id);
      if (!part) parts.set(id, { values, lastSeenAt: createdAt });
      else if (part.lastSeenAt < createdAt) part.lastSeenAt = createdAt;
      return { ulid: row.ulid, created_at: createdAt, count: Number(row.count), part_id: id };
    });
    await insertInChunks(knex, 'public_audit_requests', requests, 500);
    after = rows[rows.length - 1]!.ulid as string;
  }
  const partRows = [...parts].map(([id, part]) => ({
    id,
    last_seen_at: part.lastSeenAt,
    ...Object.fromEntries(partColumns.map((column, i) => [column, part.values[i]])),
  }));
  await insertInChunks(knex, 'public_audit_parts', partRows, 200);
  await knex.schema.dropTable('public_audit_entries');
  // MySQL/MariaDB: read with the reader's own rights, so the view keeps working if the user that
  // ran the migration is dropped (the default is that user's rights).
  // Columns as `??` bindings: Knex quotes them as the dialect does (backticks, double quotes).
  await knex.raw(
    `CREATE ${mysql ? 'SQL SECURITY INVOKER ' : ''}VIEW public_audit_entries AS SELECT ${publicAuditColumns
      .map(() => '??')
      .join(', ')} FROM public_audit_requests r JOIN public_audit_parts p ON p.id = r.part_id`,
    publicAuditColumns.map((column) =>
      column === 'ulid' || column === 'created_at' || column === 'count' ? `r.${column}` : `p.${column}`,
    ),
  );
}

/**
 * Plain INSERTs of `size` rows: Knex's batchInsert opens a transaction of its own, which
 * MySQL/MariaDB commits implicitly at the migration's next DDL statement (Knex then warns).
 */
async function insertInChunks(knex: Knex, table: string, rows: readonly object[], size: number): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await knex(table).insert(rows.slice(i, i + size));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('public_audit_entries_wide', (t) => {
    t.string('ulid', 40).primary();
    t.string('created_at', 24).notNullable();
    sharedColumns(t);
    t.integer('count').notNullable().defaultTo(1);
  });
  const columns = publicAuditColumns.map(() => '??').join(', ');
  await knex.raw(`INSERT INTO public_audit_entries_wide (${columns}) SELECT ${columns} FROM public_audit_entries`, [
    ...publicAuditColumns,
    ...publicAuditColumns,
  ]);
  await knex.raw('DROP VIEW public_audit_entries');
  await knex.schema.dropTable('public_audit_requests');
  await knex.schema.dropTable('public_audit_parts');
  await knex.schema.renameTable('public_audit_entries_wide', 'public_audit_entries');
  await knex.schema.alterTable('public_audit_entries', (t) => {
    t.index(['action', 'ulid'], 'public_audit_entries_action_ulid_index');
    t.index(['result', 'ulid'], 'public_audit_entries_result_ulid_index');
    t.index(['subject_ulid', 'ulid'], 'public_audit_entries_subject_ulid_ulid_index');
    t.index(['project_ulid', 'ulid'], 'public_audit_entries_project_ulid_ulid_index');
    t.index(['subject_type', 'ulid'], 'public_audit_entries_subject_type_ulid_index');
    t.index(['actor_ulid', 'ulid'], 'public_audit_entries_actor_ulid_ulid_index');
  });
}
