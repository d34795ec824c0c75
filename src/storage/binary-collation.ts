import type { Knex } from 'knex';

/** Every MySQL/MariaDB table and text column compares exactly: case and accents count. */
export const BINARY_CHARSET = 'utf8mb4';
export const BINARY_COLLATION = 'utf8mb4_bin';

type TableBuilderFactory = (
  type: string,
  tableName: string,
  tableNameLike: string | undefined,
  fn: ((t: Knex.CreateTableBuilder) => void) | undefined,
) => unknown;

/**
 * Makes every table Knex creates on this instance (migrations and Knex's own) binary-collated,
 * whatever the server's or database's default: Knex otherwise writes the connection's character
 * set alone, which picks that set's default, case-insensitive collation.
 */
export function createTablesWithBinaryCollation(knex: Knex): void {
  const client = knex.client as { tableBuilder: TableBuilderFactory };
  const original = client.tableBuilder.bind(client);
  client.tableBuilder = (type, tableName, tableNameLike, fn) => {
    if ((type !== 'create' && type !== 'createIfNot') || !fn) return original(type, tableName, tableNameLike, fn);
    return original(type, tableName, tableNameLike, function (this: unknown, t) {
      t.charset(BINARY_CHARSET);
      t.collate(BINARY_COLLATION);
      fn.call(this, t);
    });
  };
}
