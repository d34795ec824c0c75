import type { Knex } from 'knex';

const collation = 'utf8mb4_bin';

interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

/**
 * MySQL/MariaDB: every table compares text exactly. Tables made by the earlier migrations took
 * the character set's default collation (utf8mb4_general_ci on MariaDB: case- and
 * accent-insensitive), so an upper-case ulid or e-mail found the row of the lower-case one.
 * Each table not yet binary is converted with its columns. MariaDB refuses to change the
 * collation of a column in a foreign key, even with the checks off, so the foreign keys are
 * dropped first and made again, as they were, once every table agrees. SQLite compares exactly
 * already.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  const [tables] = (await knex.raw(
    'SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = ? AND (TABLE_COLLATION IS NULL OR TABLE_COLLATION <> ?)',
    ['BASE TABLE', collation],
  )) as [Array<{ name: string }>];
  if (tables.length === 0) return;
  const foreignKeys = await readForeignKeys(knex);
  for (const fk of foreignKeys) await knex.raw('ALTER TABLE ?? DROP FOREIGN KEY ??', [fk.table, fk.name]);
  for (const { name } of tables) {
    await knex.raw(`ALTER TABLE ?? CONVERT TO CHARACTER SET utf8mb4 COLLATE ${collation}`, [name]);
  }
  for (const fk of foreignKeys) {
    const columns = fk.columns.map(() => '??').join(', ');
    const referenced = fk.referencedColumns.map(() => '??').join(', ');
    await knex.raw(
      `ALTER TABLE ?? ADD CONSTRAINT ?? FOREIGN KEY (${columns}) REFERENCES ?? (${referenced}) ON DELETE ${rule(fk.onDelete)} ON UPDATE ${rule(fk.onUpdate)}`,
      [fk.table, fk.name, ...fk.columns, fk.referencedTable, ...fk.referencedColumns],
    );
  }
}

/** Nothing to undo: binary comparison is what every release promised. */
export async function down(): Promise<void> {}

async function readForeignKeys(knex: Knex): Promise<ForeignKey[]> {
  const [rows] = (await knex.raw(
    `SELECT k.CONSTRAINT_NAME AS name, k.TABLE_NAME AS tbl, k.COLUMN_NAME AS col, k.REFERENCED_TABLE_NAME AS rtbl,
            k.REFERENCED_COLUMN_NAME AS rcol, r.DELETE_RULE AS onDelete, r.UPDATE_RULE AS onUpdate
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME AND r.TABLE_NAME = k.TABLE_NAME
      WHERE k.TABLE_SCHEMA = DATABASE() AND k.REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
  )) as [Array<{ name: string; tbl: string; col: string; rtbl: string; rcol: string; onDelete: string; onUpdate: string }>];
  const byName = new Map<string, ForeignKey>();
  for (const row of rows) {
    const id = `${row.tbl}.${row.name}`;
    let fk = byName.get(id);
    if (!fk) {
      fk = {
        name: row.name,
        table: row.tbl,
        columns: [],
        referencedTable: row.rtbl,
        referencedColumns: [],
        onDelete: row.onDelete,
        onUpdate: row.onUpdate,
      };
      byName.set(id, fk);
    }
    fk.columns.push(row.col);
    fk.referencedColumns.push(row.rcol);
  }
  return [...byName.values()];
}

/** A referential action as information_schema spells it, checked before it is put into SQL. */
function rule(action: string): string {
  const allowed = ['CASCADE', 'SET NULL', 'RESTRICT', 'NO ACTION', 'SET DEFAULT'];
  if (!allowed.includes(action)) throw new Error(`unexpected referential action ${action}`);
  return action;
}
