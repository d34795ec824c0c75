import type { Knex } from 'knex';
import { BINARY_TABLE_COLLATION, convertTablesToBinary } from './binary-tables.js';

/**
 * MySQL/MariaDB: every text column compares exactly, not only every table. Migrations run in
 * transactions whose Knex client did not get the binary default of the server's own instance, so
 * a table a later migration created without naming utf8mb4_bin took the database's default
 * collation (case-insensitive: `Foo` found the row of `foo`); and a column can differ from its
 * table. Each base table with such a column, or not binary itself, is converted with its columns.
 * SQLite compares exactly already. PostgreSQL: nothing to do; its comparisons are exact
 * and every text column is made COLLATE "C" when created (src/storage/binary-collation.ts), so
 * it orders as the other dialects do.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  const [tables] = (await knex.raw(
    `SELECT t.TABLE_NAME AS name
       FROM information_schema.TABLES t
      WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE'
        AND ((t.TABLE_COLLATION IS NULL OR t.TABLE_COLLATION <> ?)
             OR EXISTS (SELECT 1 FROM information_schema.COLUMNS c
                         WHERE c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME
                           AND c.COLLATION_NAME IS NOT NULL AND c.COLLATION_NAME <> ?))
      ORDER BY t.TABLE_NAME`,
    [BINARY_TABLE_COLLATION, BINARY_TABLE_COLLATION],
  )) as [Array<{ name: string }>];
  await convertTablesToBinary(
    knex,
    tables.map((t) => t.name),
  );
}

/** Nothing to undo: binary comparison is what every release promised. */
export async function down(): Promise<void> {}
