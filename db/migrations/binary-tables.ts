import type { Knex } from 'knex';

/** The collation every MySQL/MariaDB table and text column has: exact comparison. */
export const BINARY_TABLE_COLLATION = 'utf8mb4_bin';

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
 * Converts `tables` (MySQL/MariaDB) and all their text columns to utf8mb4_bin. MariaDB refuses to
 * change the collation of a column in a foreign key, even with the checks off, so every foreign
 * key of the database is dropped first and made again, as it was, once every table agrees.
 * Migrations 0012 and 0019 share it.
 */
export async function convertTablesToBinary(knex: Knex, tables: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  const foreignKeys = await readForeignKeys(knex);
  for (const fk of foreignKeys) await knex.raw('ALTER TABLE ?? DROP FOREIGN KEY ??', [fk.table, fk.name]);
  for (const name of tables) {
    await knex.raw(`ALTER TABLE ?? CONVERT TO CHARACTER SET utf8mb4 COLLATE ${BINARY_TABLE_COLLATION}`, [name]);
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
