import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';

export type Dialect = 'sqlite' | 'mysql';

/** Name of the Unicode-aware lower-case SQL function registered on SQLite connections. */
export const SQLITE_UNICODE_LOWER = 'vexil_lower';

interface SqliteStatement {
  readonly reader: boolean;
  raw(on: boolean): unknown;
}

interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  pragma(s: string): unknown;
  function(name: string, options: { deterministic: boolean }, fn: (value: unknown) => unknown): unknown;
}

export interface Database {
  knex: Knex;
  dialect: Dialect;
}

/** Prepared statements kept per SQLite connection (the SQL texts the service runs, and IN lists). */
const STATEMENT_CACHE_SIZE = 2000;

/**
 * Knex prepares every query again before running it, which costs as much as running a small
 * query. Statements are reusable (Knex runs them with all()/run(), never as open iterators), so
 * the connection's prepare() answers from a bounded cache keyed by SQL text. A statement comes
 * back in its default mode (rows as objects) whatever its previous user set (prepared-sql.ts
 * reads some rows as arrays).
 */
function cachePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, SqliteStatement>();
  conn.prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
    } else if (statement.reader) {
      statement.raw(false);
    }
    return statement;
  };
}

/** Builds a Knex instance from `sqlite:PATH` or `mysql://user:pass@host:port/db`. */
export function openDatabase(url: string): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const knex = knexFactory({
      client: 'better-sqlite3',
      connection: { filename: file },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        // WAL lets readers proceed during writes; foreign keys are off by default in SQLite.
        afterCreate: (conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) => {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('synchronous = NORMAL');
          cachePreparedStatements(conn);
          // SQLite's LOWER() folds ASCII letters only; searches use this Unicode-aware one.
          conn.function(SQLITE_UNICODE_LOWER, { deterministic: true }, (value: unknown) =>
            typeof value === 'string' ? value.toLowerCase() : value,
          );
          done(null, conn);
        },
      },
    });
    return { knex, dialect: 'sqlite' };
  }
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) {
    const knex = knexFactory({
      client: 'mysql2',
      connection: {
        uri: url.replace(/^mariadb:/, 'mysql:'),
        // Timestamps are stored as ISO strings; keep DATE handling out of the driver.
        dateStrings: true,
        supportBigNumbers: true,
        charset: 'utf8mb4',
      } as Knex.MySqlConnectionConfig,
      pool: { min: 0, max: 10 },
    });
    return { knex, dialect: 'mysql' };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or mysql:// (got "${url.split(':')[0]}:...")`);
}
