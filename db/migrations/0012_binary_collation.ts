import type { Knex } from 'knex';
import { BINARY_TABLE_COLLATION, convertTablesToBinary } from './binary-tables.js';

/**
 * MySQL/MariaDB: every table compares text exactly. Tables made by the earlier migrations took
 * the character set's default collation (utf8mb4_general_ci on MariaDB: case- and
 * accent-insensitive), so an upper-case ulid or e-mail found the row of the lower-case one.
 * Each table not yet binary is converted with its columns (binary-tables.ts). SQLite compares
 * exactly already. PostgreSQL: nothing to do; its comparisons are exact
 * and every text column is made COLLATE "C" when created (src/storage/binary-collation.ts), so
 * it orders as the other dialects do.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  const [tables] = (await knex.raw(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = ? AND (TABLE_COLLATION IS NULL OR TABLE_COLLATION <> ?)',
    ['BASE TABLE', BINARY_TABLE_COLLATION],
  )) as [Array<{ name: string }>];
  await convertTablesToBinary(
    knex,
    tables.map((t) => t.name),
  );
}

/** Nothing to undo: binary comparison is what every release promised. */
export async function down(): Promise<void> {}
