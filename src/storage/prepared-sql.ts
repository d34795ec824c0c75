import type { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import { announceQuery } from '../observability/query-events.js';
import { lockWaitOf, retryWhileLocked } from './sqlite-lock-wait.js';
import type { AppendStatement, Value } from './statement.js';
import { sqliteWorkerOf } from './sqlite-worker.js';

export type { AppendStatement, Value } from './statement.js';

/**
 * Runs fixed SQL text with `?` bindings on the pool's connection (or a transaction's), without
 * Knex's query builder and compiler. For the audit paths, which run once per request: building,
 * compiling and (on better-sqlite3) preparing the same statement again on every call cost more
 * CPU than running it (bench/README.md). On SQLite each text is prepared once per connection (the
 * connection's statement cache); on MySQL/MariaDB the text goes to mysql2 as is; on PostgreSQL it
 * is rewritten once per text (postgresText). Callers build the text from constant
 * fragments only (identifiers are fixed and quoted with backticks, values always `?` bindings).
 */

interface SqliteStatement {
  all(values: readonly Value[]): unknown[][];
  run(values: readonly Value[]): unknown;
  raw(on: boolean): SqliteStatement;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}
interface MysqlConnection {
  query(
    options: { sql: string; rowsAsArray?: boolean },
    values: readonly Value[],
    callback: (error: Error | null, rows: unknown) => void,
  ): void;
}
interface PgConnection {
  query(
    config: { text: string; values: readonly Value[]; rowMode?: 'array' },
    callback: (error: Error | null, result: { rows: unknown[] }) => void,
  ): void;
}
interface PoolClient extends EventEmitter {
  driverName: string;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): unknown;
}

/**
 * The connection's statement for `sql`. SQLite connections answer prepare() from their
 * statement cache (database.ts), which hands statements out in their default (object rows) mode.
 */
function sqliteStatement(connection: SqliteConnection, sql: string, arrays = false): SqliteStatement {
  const statement = connection.prepare(sql);
  return arrays ? statement.raw(true) : statement;
}

/**
 * Runs the statement on a connection of the pool (or the transaction's). On SQLite outside a
 * transaction, a write lock held elsewhere is waited out asynchronously, the connection given
 * back between tries (sqlite-lock-wait.ts).
 */
function onConnection<T>(
  db: Knex | Knex.Transaction,
  sql: string,
  sqlite: (connection: SqliteConnection) => T,
  server: (query: ServerQuery) => Promise<T>,
  options: StatementOptions = {},
): Promise<T> {
  const lockWait = lockWaitOf(db);
  const once = () => onConnectionOnce(db, sql, sqlite, server);
  return lockWait === undefined ? once() : retryWhileLocked(once, options.lockWaitMs ?? lockWait.waitMs, lockWait.line);
}

export interface StatementOptions {
  /** SQLite: how long to wait for a write lock held elsewhere (default: the database's VEXIL_SQLITE_LOCK_WAIT_MS; 0: one try). */
  lockWaitMs?: number;
}

async function onConnectionOnce<T>(
  db: Knex | Knex.Transaction,
  sql: string,
  sqlite: (connection: SqliteConnection) => T,
  server: (query: ServerQuery) => Promise<T>,
): Promise<T> {
  const client = db.client as PoolClient;
  const connection = await client.acquireConnection();
  // Knex's own query events, so metrics and traces see these statements too.
  const finished = announceQuery(client, sql);
  try {
    const result =
      client.driverName === 'better-sqlite3'
        ? sqlite(connection as SqliteConnection)
        : await server(
            client.driverName === 'pg'
              ? (text, values, arrays) => pgQuery(connection as PgConnection, text, values, arrays)
              : (text, values, arrays) => mysqlQuery(connection as MysqlConnection, text, values, arrays),
          );
    finished();
    return result;
  } catch (error) {
    finished(error);
    throw error;
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Runs the statement on a server's connection (MySQL/MariaDB or PostgreSQL), rows as arrays when asked. */
type ServerQuery = (sql: string, values: readonly Value[], rowsAsArray?: boolean) => Promise<unknown>;

function pgQuery(connection: PgConnection, sql: string, values: readonly Value[], rowsAsArray = false): Promise<unknown> {
  const text = postgresText(sql);
  return new Promise((resolve, reject) => {
    connection.query({ text, values, ...(rowsAsArray ? { rowMode: 'array' as const } : {}) }, (error, result) =>
      error ? reject(error) : resolve(result.rows),
    );
  });
}

/**
 * The statement as PostgreSQL reads it: identifiers in double quotes instead of backticks, and
 * numbered placeholders ($1, $2...) instead of `?`. The texts are constant (values are bindings),
 * so neither character appears in a literal; each text is rewritten once.
 */
export function postgresText(sql: string): string {
  let text = postgresTexts.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/[`?]/g, (c) => (c === '`' ? '"' : `$${++n}`));
    if (postgresTexts.size >= 512) postgresTexts.clear();
    postgresTexts.set(sql, text);
  }
  return text;
}
const postgresTexts = new Map<string, string>();

function mysqlQuery(connection: MysqlConnection, sql: string, values: readonly Value[], rowsAsArray = false): Promise<unknown> {
  return new Promise((resolve, reject) => {
    connection.query({ sql, rowsAsArray }, values, (error, rows) => (error ? reject(error) : resolve(rows)));
  });
}

/** Runs an INSERT, UPDATE or DELETE. */
export function execute(db: Knex | Knex.Transaction, sql: string, values: readonly Value[], options?: StatementOptions): Promise<void> {
  return onConnection(
    db,
    sql,
    (connection) => void sqliteStatement(connection, sql).run(values),
    async (query) => void (await query(sql, values)),
    options,
  );
}

/**
 * Whether `append` runs on the serving thread's synchronous driver (SQLite without its worker
 * thread: in memory, or after the worker ended), where every statement blocks the event loop for
 * as long as it runs. On the worker thread and on MySQL/MariaDB and PostgreSQL the serving thread only hands
 * the statement over.
 */
export function appendBlocksServingThread(db: Knex): boolean {
  return (db.client as PoolClient).driverName === 'better-sqlite3' && sqliteWorkerOf(db) === undefined;
}

/**
 * Runs statements whose rows nothing waits to read back (the public audit trail), one after
 * another: on a SQLite file, on the database's worker thread (sqlite-worker.ts) in one
 * transaction, so the serving thread spends one message on them instead of the inserts' CPU;
 * elsewhere, and when the worker is not running, here, as `execute`. Each statement must be
 * safe to run again after a failure of a later one (the caller retries the whole list).
 */
export async function append(db: Knex, statements: readonly AppendStatement[]): Promise<void> {
  const handedOver = sqliteWorkerOf(db)?.append(statements);
  if (handedOver !== undefined) return handedOver;
  for (const statement of statements) await execute(db, statement.sql, statement.values);
}

/**
 * Runs a SELECT and returns each row as an array of its columns in select-list order. Cheaper
 * than `select` for wide rows: the drivers then build no object per row, property by property.
 */
export function selectArrays(db: Knex | Knex.Transaction, sql: string, values: readonly Value[]): Promise<unknown[][]> {
  return onConnection(
    db,
    sql,
    (connection) => sqliteStatement(connection, sql, true).all(values),
    async (query) => (await query(sql, values, true)) as unknown[][],
  );
}

/** `INSERT INTO table (columns) VALUES (?, ...), ...` for `rows` rows, then `onConflict` (an upsert clause); texts are cached. */
export function insertText(table: string, columns: readonly string[], rows: number, onConflict = ''): string {
  const key = `${table}\u0000${columns.join(',')}\u0000${rows}\u0000${onConflict}`;
  let text = insertTexts.get(key);
  if (text === undefined) {
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    text = `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ${Array(rows).fill(tuple).join(', ')}${onConflict}`;
    if (insertTexts.size >= 512) insertTexts.clear();
    insertTexts.set(key, text);
  }
  return text;
}
const insertTexts = new Map<string, string>();
