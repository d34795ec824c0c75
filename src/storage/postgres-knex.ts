import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createTextColumnsWithBinaryOrder } from './binary-collation.js';
import { isPostgresHostsUrl, parsePostgresHostsUrl } from './postgres-hosts-url.js';
import { followWritableHost, writableHostConnection } from './postgres-writable-host.js';

/** How long to wait for a PostgreSQL pool connection and for one query's answer (database.ts). */
export interface PostgresTimeouts {
  acquireMs: number;
  queryMs: number;
}

/** The query limit in force: 0 for none (migrations), set by database.ts's withoutQueryTimeout. */
export interface QueryLimit {
  ms: number;
}

/**
 * Values come back as the other dialects return them, so answers are byte-identical whatever the
 * database: booleans as 1 and 0 (SQLite's integers, MySQL's tinyint), bigint (counts, revisions,
 * sequences) as numbers while exact (as mysql2's supportBigNumbers), JSON as its text. Time
 * stamps are text columns everywhere: no date parsing is involved.
 */
const OID = { bool: 16, int8: 20, json: 114, jsonb: 3802 } as const;
const parseBigint = (text: string): number | string => {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
};
const sameAsOtherDialects = {
  getTypeParser(oid: number, format?: string) {
    if (format === 'binary') return pg.types.getTypeParser(oid, 'binary');
    if (oid === OID.bool) return (text: string) => (text === 't' ? 1 : 0);
    if (oid === OID.int8) return parseBigint;
    if (oid === OID.json || oid === OID.jsonb) return (text: string) => text;
    return pg.types.getTypeParser(oid, 'text');
  },
};

interface QueryConfig {
  text: string;
  values?: unknown[];
  rowMode?: string;
  query_timeout?: number;
}
type QueryCallback = (error: (Error & { code?: string; sql?: string }) | null, result?: unknown) => void;

/** The part of pg.Client this wraps. */
export interface PgConnection {
  query(config: QueryConfig | string, values?: unknown, callback?: unknown): unknown;
  connection?: { stream?: { destroy(): void } };
}

/** Added to the server's statement_timeout for the client's own wait: a server that stopped answering. */
const CLIENT_GRACE_MS = 1000;

/**
 * Every query gets the time limit: the server cancels a statement past `statement_timeout` (the
 * connection stays usable; SQLSTATE 57014), and the client gives up shortly after for a server
 * that does not answer at all, closing the connection (the pool drops it; the server rolls back
 * its transaction). The limit is set on the session when it differs from the one in force
 * (migrations run without one); a rollback may undo that SET, so it is sent again after one.
 */
function limitQueryTime(conn: PgConnection, limit: QueryLimit, initialMs: number): void {
  const query = conn.query.bind(conn);
  let applied: number | undefined = initialMs;
  conn.query = (config, values, callback) => {
    if (typeof config !== 'object' || config === null) return query(config, values, callback);
    const done = (typeof values === 'function' ? values : callback) as QueryCallback | undefined;
    if (typeof done !== 'function') return query(config, values, callback);
    if (applied !== limit.ms) {
      query(`SET statement_timeout = ${Math.max(0, Math.floor(limit.ms))}`, () => {});
      applied = limit.ms;
    }
    if (/^\s*rollback/i.test(config.text)) applied = undefined;
    const timed: QueryConfig = limit.ms > 0 ? { ...config, query_timeout: limit.ms + CLIENT_GRACE_MS } : config;
    return query(timed, (error: (Error & { code?: string }) | null, result?: unknown) => {
      if (error && error.message === 'Query read timeout') {
        error.code = 'PG_QUERY_READ_TIMEOUT';
        conn.connection?.stream?.destroy();
      }
      done(error, result);
    });
  };
}

/** A Knex instance on PostgreSQL (`postgres://` or `postgresql://` URLs) through the pg driver. */
export function openPostgresKnex(url: string, timeouts: PostgresTimeouts, limit: QueryLimit, log: Knex.Logger): Knex {
  const settings = {
    types: sameAsOtherDialects,
    statement_timeout: timeouts.queryMs,
    // A server that accepts the connection but never answers counts against the acquire time.
    connectionTimeoutMillis: timeouts.acquireMs,
    application_name: 'vexil',
  } as Knex.PgConnectionConfig;
  // Several hosts (a primary and its standbys): each new pool connection goes to the one that
  // takes writes now, found again once a connection to it fails (postgres-writable-host.ts).
  const hosts = isPostgresHostsUrl(url)
    ? writableHostConnection(parsePostgresHostsUrl(url), { timeoutMs: timeouts.acquireMs, base: settings })
    : undefined;
  const knex = knexFactory({
    client: 'pg',
    // Error messages carry the SQL with placeholders, not the values: logs never hold a bound secret.
    compileSqlOnError: false,
    connection: hosts ? hosts.connection : { connectionString: url, ...settings },
    acquireConnectionTimeout: timeouts.acquireMs,
    log,
    pool: {
      min: 0,
      max: 10,
      // Knex listens for the connection's `error` event itself (a dying server never crashes the
      // process: the connection is marked disposed and the pool drops it).
      afterCreate: (conn: PgConnection, done: (err: Error | null, conn: unknown) => void) => {
        limitQueryTime(conn, limit, timeouts.queryMs);
        done(null, conn);
      },
    },
  });
  if (hosts) followWritableHost(knex, hosts);
  createTextColumnsWithBinaryOrder(knex);
  return knex;
}
