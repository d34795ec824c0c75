import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { createTablesWithBinaryCollation } from './binary-collation.js';
import { openPostgresKnex } from './postgres-knex.js';
import { registerSqliteWorker, SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES, type SqliteWorker, startSqliteWorker } from './sqlite-worker.js';
import { beginImmediate, SQLITE_BUSY_TIMEOUT_MS, waitOutLocks } from './sqlite-lock-wait.js';
import { conflictBackoffMs, retriesAutocommitConflict, trackTransaction } from './autocommit-conflicts.js';
import { type DatabaseHostStatus, mysqlHostsOf, queryTimeoutOf, routeConnectionsThroughHosts, WSREP_NOT_READY } from './mysql-hosts.js';

export type Dialect = 'sqlite' | 'mysql' | 'postgres';

/** Whether the dialect locks the rows a transaction reads FOR UPDATE / FOR SHARE (SQLite locks the whole database). */
export function hasRowLocks(dialect: Dialect): boolean {
  return dialect !== 'sqlite';
}

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
  /** MySQL/MariaDB: which of DATABASE_URL's hosts new connections go to, and how that goes (/ready). */
  hosts?: () => DatabaseHostStatus;
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

/** How long a request may wait for the database (config.ts: VEXIL_DB_*_TIMEOUT_MS, VEXIL_SQLITE_LOCK_WAIT_MS). */
export interface DatabaseTimeouts {
  /** MySQL/MariaDB and PostgreSQL: waiting for a pooled connection, opening one included. */
  acquireMs: number;
  /** MySQL/MariaDB and PostgreSQL: waiting for the answer to one query. */
  queryMs: number;
  /** SQLite: waiting for a write lock another process holds (sqlite-lock-wait.ts). */
  lockWaitMs?: number;
  /** Galera: the least wait for one query's answer (writes stall while a dead node is evicted). */
  galeraQueryMs?: number;
}

const defaultTimeouts: DatabaseTimeouts = { acquireMs: 3000, queryMs: 5000, lockWaitMs: 5000, galeraQueryMs: 15_000 };

interface MysqlConnection {
  query(options: unknown, values: unknown, callback: unknown): unknown;
  destroy(): void;
}

/** The query limit in force per Knex instance (0: none, while migrations run: an ALTER may take long). */
const queryLimits = new WeakMap<Knex, { ms: number }>();

/**
 * Every query on the connection gets the driver's timeout. A query that times out leaves the
 * connection in an unknown state: it is closed, so the pool drops it and the server rolls back
 * its open transaction (a write that timed out is never half done). A failed query's error names
 * its SQL with placeholders, never with the values (the driver's copy has them inlined, and a
 * value may be a secret): see `compileSqlOnError` below.
 */
function limitQueryTime(conn: MysqlConnection, limit: { ms: number }): void {
  const query = conn.query.bind(conn);
  conn.query = (options, values, callback) => {
    if (typeof options !== 'object' || options === null || typeof callback !== 'function') {
      return query(options, values, callback);
    }
    const template = (options as { sql?: unknown }).sql;
    const ms = queryTimeoutOf(conn, limit.ms);
    const timed = ms > 0 ? { timeout: ms, ...options } : options;
    const send = (attempt: number): unknown =>
      query(timed, values, (err: { code?: string; errno?: number; sql?: unknown } | null, ...rest: unknown[]) => {
        if (retriesAutocommitConflict(conn, err, attempt)) return void setTimeout(() => send(attempt + 1), conflictBackoffMs(attempt));
        trackTransaction(conn, template);
        if (err) err.sql = template;
        // A Galera node that left the primary component answers nothing useful: the pool drops
        // the connection, and the next one is opened on a ready node (mysql-hosts.ts).
        if (err?.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || err?.errno === WSREP_NOT_READY) conn.destroy();
        (callback as (...args: unknown[]) => void)(err, ...rest);
      });
    return send(1);
  };
}

/** Runs `work` with no query time limit on this Knex instance (schema migrations at start). */
export async function withoutQueryTimeout<T>(knex: Knex, work: () => Promise<T>): Promise<T> {
  const limit = queryLimits.get(knex);
  const saved = limit?.ms ?? 0;
  if (limit) limit.ms = 0;
  try {
    return await work();
  } finally {
    if (limit) limit.ms = saved;
  }
}

/**
 * Knex's console warnings, less those whose event reaches a caller that logs it (structured): a
 * failed connection acquisition, and the migration lock another instance holds (migrate.ts waits).
 */
const reportedElsewhere = ['Acquire connection error', "Can't take lock to run migrations", 'If you are sure migrations are not running'];
function knexWarning(message: unknown): void {
  const text = String(message);
  if (!reportedElsewhere.some((start) => text.startsWith(start))) console.warn(message);
}

/** What the database layer reports that is not an error of a query (the server's logger). */
export type DatabaseWarning = (message: string, fields?: Record<string, unknown>) => void;

const warnOnConsole: DatabaseWarning = (message, fields) => console.warn(message, fields ?? '');

/**
 * Builds a Knex instance from `sqlite:PATH`, `mysql://user:pass@host:port/db` (the host part may
 * list several hosts separated by commas: mysql-hosts.ts) or `postgres://user:pass@host:port/db`
 * (several hosts in libpq's form: postgres-hosts-url.ts).
 */
export function openDatabase(url: string, timeouts: DatabaseTimeouts = defaultTimeouts, warn: DatabaseWarning = warnOnConsole): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    const onDisk = file !== ':memory:' && file !== '';
    if (onDisk) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    // WAL checkpoints and appends of a database file run on a worker thread (sqlite-worker.ts),
    // started once the first connection has made the file; until then, and if it cannot run, inline.
    let worker: SqliteWorker | undefined;
    let autocheckpointPages = onDisk ? 0 : SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES;
    let current: SqliteConnection | undefined;
    const checkpointInline = (reason: string) => {
      autocheckpointPages = SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES;
      try {
        current?.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
      } catch {
        // A closed connection: the next one is made with the inline setting.
      }
      warn('SQLite checkpoints run on the serving thread again', { reason });
    };
    const knex = knexFactory({
      client: 'better-sqlite3',
      connection: { filename: file },
      // Error messages carry the SQL with placeholders, not the values: logs never hold a bound secret.
      compileSqlOnError: false,
      useNullAsDefault: true,
      log: { warn: knexWarning },
      pool: {
        min: 1,
        max: 1,
        // WAL lets readers proceed during writes; foreign keys are off by default in SQLite.
        afterCreate: (conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) => {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          // SQLite's busy wait blocks the event loop: none here, the lock is waited for asynchronously.
          conn.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
          conn.pragma('synchronous = NORMAL');
          conn.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
          current = conn;
          if (onDisk && !worker) {
            try {
              worker = startSqliteWorker({ file: path.resolve(file), fallBack: checkpointInline });
            } catch (error) {
              checkpointInline((error as Error).message);
            }
          }
          cachePreparedStatements(conn);
          beginImmediate(conn);
          // SQLite's LOWER() folds ASCII letters only; searches use this Unicode-aware one.
          conn.function(SQLITE_UNICODE_LOWER, { deterministic: true }, (value: unknown) =>
            typeof value === 'string' ? value.toLowerCase() : value,
          );
          done(null, conn);
        },
      },
    });
    waitOutLocks(knex, timeouts.lockWaitMs ?? defaultTimeouts.lockWaitMs!);
    registerSqliteWorker(knex, () => worker);
    // Closing the database ends its worker first (one last checkpoint), whoever closes it.
    // (knex.destroy() is read-only; it calls the client's destroy, which is not.)
    const client = knex.client as { destroy(callback?: unknown): Promise<void> };
    const destroyClient = client.destroy.bind(client);
    client.destroy = async (callback?: unknown) => {
      await worker?.stop();
      return destroyClient(callback);
    };
    return { knex, dialect: 'sqlite' };
  }
  if (url.startsWith('mysql://') || url.startsWith('mariadb://')) {
    const limit = { ms: timeouts.queryMs };
    const hostList = mysqlHostsOf(url);
    const knex = knexFactory({
      client: 'mysql2',
      compileSqlOnError: false,
      connection: {
        uri: hostList.urlFor(hostList.hosts[0]!),
        // Timestamps are stored as ISO strings; keep DATE handling out of the driver.
        dateStrings: true,
        supportBigNumbers: true,
        charset: 'utf8mb4',
        // A server that accepts the connection but never answers counts against the acquire time.
        connectTimeout: timeouts.acquireMs,
      } as Knex.MySqlConnectionConfig,
      // An unreachable or hung server fails requests within these times (503), not at the client's limit.
      acquireConnectionTimeout: timeouts.acquireMs,
      log: { warn: knexWarning },
      pool: {
        min: 0,
        max: 10,
        afterCreate: (conn: MysqlConnection, done: (err: Error | null, conn: unknown) => void) => {
          limitQueryTime(conn, limit);
          done(null, conn);
        },
      },
    });
    queryLimits.set(knex, limit);
    createTablesWithBinaryCollation(knex);
    const hosts = routeConnectionsThroughHosts(knex, hostList, {
      probeTimeoutMs: timeouts.acquireMs,
      galeraQueryTimeoutMs: timeouts.galeraQueryMs ?? defaultTimeouts.galeraQueryMs!,
      warn,
    });
    return { knex, dialect: 'mysql', hosts };
  }
  if (isPostgresUrl(url)) {
    const limit = { ms: timeouts.queryMs };
    const knex = openPostgresKnex(url, timeouts, limit, { warn: knexWarning });
    queryLimits.set(knex, limit);
    return { knex, dialect: 'postgres' };
  }
  throw new Error(`DATABASE_URL must start with sqlite:, mysql:// or postgres:// (got "${url.split(':')[0]}:...")`);
}

/** `postgres://` and `postgresql://` URLs name a PostgreSQL server (15 or later). */
export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}
