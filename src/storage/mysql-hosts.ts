import type { Knex } from 'knex';
import { StartupError } from '../startup-error.js';

/**
 * Several MySQL/MariaDB hosts in one DATABASE_URL, for a Galera cluster (or any set of servers
 * that share one database): `mysql://user:password@host1:3306,host2:3306,host3:3306/vexil`. New
 * connections go to the host the last one reached; when a host refuses, cannot be reached, or is a
 * Galera node that is not ready (not in the primary component), the next host is tried, in the
 * URL's order, wrapping around. A broken connection is dropped by the pool when next acquired
 * (Knex validates each one), so work moves to the new host with the next connection.
 *
 * On a Galera node each connection sets `wsrep_sync_wait=1`: a read waits until the node has
 * applied every write the cluster acknowledged before it, so a write made through another node
 * is seen at once.
 */

export interface MysqlHostList {
  /** `host:port` as written in the URL (the port defaults to 3306). */
  hosts: string[];
  /** The URL with `host` alone in its host part. */
  urlFor(host: string): string;
}

const urlPattern = /^(?:mysql|mariadb):\/\/(?:([^@/?#]*)@)?([^/?#]*)(.*)$/s;

/** The hosts of a `mysql://` (or `mariadb://`) URL; throws naming what is wrong. */
export function mysqlHostsOf(url: string): MysqlHostList {
  const match = urlPattern.exec(url);
  if (!match) throw new StartupError('DATABASE_URL is not a mysql:// URL');
  const [, userinfo, hostPart = '', rest = ''] = match;
  const hosts = hostPart.split(',').map((host) => host.trim());
  for (const host of hosts) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(:\d{1,5})?$/.test(host)) {
      throw new StartupError(`DATABASE_URL has an invalid host "${host}" (expected host or host:port, several separated by commas)`);
    }
  }
  const withPort = hosts.map((host) => (/:\d+$/.test(host) && !host.endsWith(']') ? host : `${host}:3306`));
  return {
    hosts: withPort,
    urlFor: (host) => `mysql://${userinfo === undefined ? '' : `${userinfo}@`}${host}${rest}`,
  };
}

/** What /ready reports about the database hosts. */
export interface DatabaseHostStatus {
  /** The host new connections go to (the last one that accepted a connection). */
  host: string;
  /**
   * `connected`: the last connection attempt succeeded. `reconnecting`: a host failed and the
   * next ones are being tried. `unreachable`: no host accepted the last attempt.
   */
  state: 'connected' | 'reconnecting' | 'unreachable';
  hosts: string[];
  /** Whether the host is a Galera node (wsrep on). */
  galera: boolean;
  /** The last host that failed and why, while not connected. */
  lastFailure?: string;
}

interface RawConnection {
  query(options: { sql: string; timeout?: number }, callback: (err: Error | null, rows: unknown) => void): unknown;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

interface MysqlClient {
  connectionSettings: Record<string, unknown>;
  acquireRawConnection(): Promise<RawConnection>;
}

/** The minimum query time limit of connections on a Galera node (see galeraQueryTimeoutFloor). */
const queryTimeoutFloors = new WeakMap<object, number>();

/**
 * The query time limit of `conn`: at least the Galera floor on a Galera node, where every write
 * stalls for several seconds while a dead node is evicted from the cluster.
 */
export function queryTimeoutOf(conn: object, configuredMs: number): number {
  if (configuredMs <= 0) return configuredMs;
  return Math.max(configuredMs, queryTimeoutFloors.get(conn) ?? 0);
}

/** Galera's "WSREP has not yet prepared node for application use": the node is not in the primary component. */
export const WSREP_NOT_READY = 1047;

function sessionQuery(conn: RawConnection, sql: string, timeoutMs: number): Promise<{ Variable_name: string; Value: string }[]> {
  return new Promise((resolve, reject) => {
    conn.query({ sql, timeout: timeoutMs }, (err, rows) =>
      err ? reject(err) : resolve(rows as { Variable_name: string; Value: string }[]),
    );
  });
}

class NodeNotReady extends Error {
  readonly code = 'ER_UNKNOWN_COM_ERROR';
  readonly errno = WSREP_NOT_READY;
}

/**
 * Prepares a new connection: on a Galera node, refuses one that is not ready and sets
 * `wsrep_sync_wait=1`. Returns whether the server is a Galera node. (MySQL has no wsrep
 * variables; MariaDB without a provider reports wsrep_on OFF.)
 */
async function prepareSession(conn: RawConnection, timeoutMs: number): Promise<boolean> {
  const wsrep = await sessionQuery(conn, "SHOW VARIABLES LIKE 'wsrep_on'", timeoutMs);
  if (wsrep[0]?.Value !== 'ON') return false;
  const status = await sessionQuery(conn, "SHOW STATUS WHERE Variable_name IN ('wsrep_ready', 'wsrep_local_state_comment')", timeoutMs);
  const value = (name: string) => status.find((row) => row.Variable_name.toLowerCase() === name)?.Value;
  if (value('wsrep_ready') !== 'ON') {
    throw new NodeNotReady(
      `Galera node not ready (${value('wsrep_local_state_comment') ?? 'unknown state'}, not in the primary component)`,
    );
  }
  await sessionQuery(conn, 'SET SESSION wsrep_sync_wait = 1', timeoutMs);
  return true;
}

export interface HostRoutingOptions {
  /** Limit of each query that prepares a new connection. */
  probeTimeoutMs: number;
  /** Minimum query time limit on a Galera node. */
  galeraQueryTimeoutMs: number;
  warn: (message: string, fields?: Record<string, unknown>) => void;
}

/**
 * Makes `knex` (mysql2) open each new connection on the first host of `list` that accepts it,
 * starting at the current one. Returns the hosts' status for /ready.
 */
export function routeConnectionsThroughHosts(knex: Knex, list: MysqlHostList, options: HostRoutingOptions): () => DatabaseHostStatus {
  const client = knex.client as unknown as MysqlClient;
  const base = { ...client.connectionSettings };
  const acquire = client.acquireRawConnection.bind(client);
  let current = 0;
  let state: DatabaseHostStatus['state'] = 'connected';
  let galera = false;
  let lastFailure: string | undefined;

  client.acquireRawConnection = async () => {
    const start = current;
    let lastError: unknown;
    for (let i = 0; i < list.hosts.length; i++) {
      const index = (start + i) % list.hosts.length;
      const host = list.hosts[index]!;
      // createConnection reads the settings synchronously, so connections opened side by side
      // each get the host set just before theirs.
      client.connectionSettings = { ...base, uri: list.urlFor(host) };
      let conn: RawConnection | undefined;
      try {
        conn = await acquire();
        const onGalera = await prepareSession(conn, options.probeTimeoutMs);
        if (onGalera) queryTimeoutFloors.set(conn, options.galeraQueryTimeoutMs);
        if (index !== start) options.warn('database connections moved to another host', { host, hosts: list.hosts });
        current = index;
        state = 'connected';
        galera = onGalera;
        lastFailure = undefined;
        return conn;
      } catch (error) {
        conn?.destroy();
        lastError = error;
        const reason = (error as { code?: string }).code ?? (error as Error).message;
        lastFailure = `${host}: ${reason}`;
        if (list.hosts.length > 1) {
          state = 'reconnecting';
          current = (index + 1) % list.hosts.length;
          options.warn('database host failed; trying the next one', { host, reason });
        }
      }
    }
    state = 'unreachable';
    throw lastError;
  };

  return () => ({
    host: list.hosts[current]!,
    state,
    hosts: list.hosts,
    galera,
    ...(state === 'connected' || lastFailure === undefined ? {} : { lastFailure }),
  });
}
