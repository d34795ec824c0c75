import type { Knex } from 'knex';
import pg from 'pg';
import type { PostgresHost, PostgresHostsUrl } from './postgres-hosts-url.js';

/**
 * Finds, among the hosts of a PostgreSQL URL (postgres-hosts-url.ts), the one Vexil may write
 * to, as libpq's `target_session_attrs` would: after a primary dies and its standby is promoted,
 * new connections go to the promoted standby.
 */

export interface WritableHostOptions {
  /** Opening a probe connection, and its one query, each within this time. */
  timeoutMs: number;
  /** Settings the probe connections share with the pool's (e.g. ssl); their host and port are the probed host's. */
  base?: Knex.PgConnectionConfig;
}

/** No host of the URL can take Vexil's writes now (all down, or standbys not yet promoted). */
export class NoWritableHost extends Error {
  /** Read by isDatabaseUnavailable (db-errors.ts): the database is away, as with a refused connection. */
  readonly code = 'VEXIL_NO_WRITABLE_HOST';
  constructor(reasons: string[]) {
    super(`no database host accepts writes: ${reasons.join('; ')}`);
    this.name = 'NoWritableHost';
  }
}

const describe = ({ host, port }: PostgresHost) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * Probes every host at once (a host that hangs costs the others nothing) and resolves with the
 * first that qualifies; the other probes end on their own.
 */
export async function findWritableHost(url: PostgresHostsUrl, options: WritableHostOptions): Promise<PostgresHost> {
  const probes = url.hosts.map(async (host) => {
    const refusal = await probe(url, host, options);
    if (refusal !== undefined) throw new Error(`${describe(host)} ${refusal}`);
    return host;
  });
  try {
    return await Promise.any(probes);
  } catch (error) {
    throw new NoWritableHost((error as AggregateError).errors.map((e) => (e as Error).message));
  }
}

/** The maintenance database every server has: whether a host takes writes is the same in each of its databases. */
const MAINTENANCE_DATABASE = 'postgres';

/**
 * Why `host` does not qualify, or undefined when it does. The database named may not exist yet
 * (a first start creates it: postgres-database.ts): the host is then asked on the maintenance database.
 */
async function probe(
  url: PostgresHostsUrl,
  host: PostgresHost,
  options: WritableHostOptions,
  database?: string,
): Promise<string | undefined> {
  const timeoutMs = url.connectTimeoutMs ?? options.timeoutMs;
  const client = new pg.Client({
    ...(options.base as pg.ClientConfig),
    connectionString: url.urlFor(host, database),
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // A server that dies while probed reports it as an event too: unheard, it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (url.targetSessionAttrs === 'any') return undefined;
    // Text, whatever type parsers the settings carry (Vexil reads booleans as 1 and 0).
    const { rows } = await client.query<{ role: string; read_only: string }>(
      "SELECT CASE WHEN pg_is_in_recovery() THEN 'standby' ELSE 'primary' END AS role, current_setting('transaction_read_only') AS read_only",
    );
    const row = rows[0];
    if (row?.role !== 'primary') return 'is a standby';
    if (url.targetSessionAttrs === 'read-write' && row.read_only !== 'off') return 'accepts no writes (transaction_read_only)';
    return undefined;
  } catch (error) {
    // 3D000: invalid_catalog_name, no such database.
    if ((error as { code?: string }).code === '3D000' && database === undefined) {
      return probe(url, host, options, MAINTENANCE_DATABASE);
    }
    return `failed: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What Knex's `connection` function returns: a config, and whether it must be asked again. */
export type ResolvedConnection = Knex.PgConnectionConfig & { expirationChecker: () => boolean };

export interface WritableHostConnection {
  /**
   * Knex's `connection` for the `pg` client. Knex calls it before making a pool connection while
   * the last answer's `expirationChecker` says so: once at first, then after `hostFailed`.
   */
  connection(): Promise<ResolvedConnection>;
  /** A pool connection failed, or could not be made: the next one looks for the writable host again. */
  hostFailed(): void;
  /** The host chosen last, if any. */
  current(): PostgresHost | undefined;
}

export function writableHostConnection(url: PostgresHostsUrl, options: WritableHostOptions): WritableHostConnection {
  let chosen: PostgresHost | undefined;
  let stale = true;
  // Connections made at the same time share one search.
  let search: Promise<PostgresHost> | undefined;
  const expirationChecker = () => stale;
  return {
    connection: async () => {
      search ??= findWritableHost(url, options).finally(() => {
        search = undefined;
      });
      const host = await search;
      chosen = host;
      stale = false;
      return { ...options.base, connectionString: url.urlFor(host), expirationChecker };
    },
    hostFailed: () => {
      stale = true;
    },
    current: () => chosen,
  };
}

interface PoolEvents {
  on(event: 'createSuccess', listener: (eventId: number, connection: pg.Client) => void): void;
  on(event: 'createFail', listener: (eventId: number, error: unknown) => void): void;
}

/**
 * Tells `hosts` when the pool of `knex` (built with `hosts.connection`) loses its host: a pool
 * connection that fails (its server died or was shut down), or one that cannot be made.
 */
export function followWritableHost(knex: Knex, hosts: WritableHostConnection): void {
  const pool = (knex.client as { pool?: PoolEvents }).pool;
  if (!pool) throw new Error('followWritableHost: the Knex instance has no pool');
  pool.on('createSuccess', (_eventId, connection) => connection.on('error', () => hosts.hostFailed()));
  pool.on('createFail', () => hosts.hostFailed());
}
