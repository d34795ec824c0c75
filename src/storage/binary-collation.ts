import type { Knex } from 'knex';

/** Every MySQL/MariaDB table and text column compares exactly: case and accents count. */
export const BINARY_CHARSET = 'utf8mb4';
export const BINARY_COLLATION = 'utf8mb4_bin';

type TableBuilder = (t: Knex.CreateTableBuilder) => void;

/** The part of Knex's client this replaces: the factory of every schema builder's table builder. */
interface SchemaClient {
  tableBuilder(type: string, tableName: string, tableNameLike: string | undefined, fn: TableBuilder | undefined): unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a mixin's base class takes any arguments
type ClientClass = new (...args: any[]) => SchemaClient;

/**
 * Makes every table Knex creates through this instance (migrations and Knex's own) binary-collated,
 * whatever the server's or database's default: Knex otherwise writes the connection's character
 * set alone, which picks that set's default, case-insensitive collation. The client's class is
 * replaced rather than its method: a transaction's client is made from the class's prototype
 * (Knex's makeTxClient), so a method set on the instance would not reach the tables a migration
 * creates in its transaction.
 */
export function createTablesWithBinaryCollation(knex: Knex): void {
  const client = knex.client as SchemaClient;
  const Base = client.constructor as ClientClass;
  class BinaryCollationClient extends Base {
    override tableBuilder(type: string, tableName: string, tableNameLike: string | undefined, fn: TableBuilder | undefined): unknown {
      if ((type !== 'create' && type !== 'createIfNot') || !fn) return super.tableBuilder(type, tableName, tableNameLike, fn);
      return super.tableBuilder(type, tableName, tableNameLike, function (this: unknown, t) {
        t.charset(BINARY_CHARSET);
        t.collate(BINARY_COLLATION);
        fn.call(this, t);
      });
    }
  }
  Object.setPrototypeOf(client, BinaryCollationClient.prototype);
}

/** The part of Knex's client that makes column compilers. */
interface ColumnClient {
  columnCompiler(...args: unknown[]): ColumnCompiler;
}
interface ColumnCompiler {
  varchar?: (length?: number) => string;
  text?: string | (() => string);
}
// biome-ignore lint/suspicious/noExplicitAny: a mixin's base class takes any arguments
type ColumnClientClass = new (...args: any[]) => ColumnClient;

/** PostgreSQL's byte-order collation: text sorts and compares as SQLite and utf8mb4_bin do. */
export const POSTGRES_BINARY_COLLATION = 'C';

/**
 * PostgreSQL: every text column Knex creates or alters through this instance is COLLATE "C".
 * PostgreSQL compares text exactly already, but orders it by the database's collation (e.g.
 * en_US: `a` before `B`); "C" orders by code point, as the other dialects do (`B`, `a`, `b`,
 * `ä`), so pages and lists come back in one order everywhere. The client's class is replaced,
 * as for MySQL above, so that migrations' transactions get it too.
 */
export function createTextColumnsWithBinaryOrder(knex: Knex): void {
  const client = knex.client as ColumnClient;
  const Base = client.constructor as ColumnClientClass;
  const collated = (type: string) => `${type} collate "${POSTGRES_BINARY_COLLATION}"`;
  class BinaryOrderClient extends Base {
    override columnCompiler(...args: unknown[]): ColumnCompiler {
      const compiler = super.columnCompiler(...args);
      const varchar = compiler.varchar;
      if (typeof varchar === 'function') compiler.varchar = (length?: number) => collated(varchar.call(compiler, length));
      compiler.text = collated('text');
      return compiler;
    }
  }
  Object.setPrototypeOf(client, BinaryOrderClient.prototype);
}
