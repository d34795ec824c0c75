import { StartupError } from '../startup-error.js';

/**
 * PostgreSQL URLs naming several hosts, in libpq's form:
 * `postgres://user:password@host1:5432,host2:5433/vexil?target_session_attrs=read-write`.
 * The `pg` driver (8.x) refuses such URLs and knows no `target_session_attrs`, so Vexil reads
 * them here and connects to one host at a time (postgres-writable-host.ts).
 */

export interface PostgresHost {
  host: string;
  port: number;
}

/**
 * Which host a connection may use, as libpq names it. Vexil writes, so only these three make
 * sense: `any` (the first host that answers), `read-write` (a host whose sessions may write) and
 * `primary` (a host not in recovery).
 */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';

export interface PostgresHostsUrl {
  hosts: PostgresHost[];
  targetSessionAttrs: TargetSessionAttrs;
  /** libpq's `connect_timeout`, in milliseconds, when the URL has one. */
  connectTimeoutMs?: number;
  /**
   * The same URL for one of its hosts, without the parameters read here: what `pg` accepts; with
   * `database`, for that database instead of the one named.
   */
  urlFor(host: PostgresHost, database?: string): string;
}

/** A PostgreSQL URL Vexil cannot use; the message names the part that is wrong, never a password. */
export class InvalidPostgresUrl extends StartupError {
  constructor(reason: string) {
    super(`DATABASE_URL: ${reason}`);
    this.name = 'InvalidPostgresUrl';
  }
}

const DEFAULT_PORT = 5432;
const targetSessionAttrs: readonly string[] = ['any', 'read-write', 'primary'];
/** libpq's other values, refused by name: they choose standbys, where Vexil's writes fail. */
const standbyTargets: readonly string[] = ['read-only', 'standby', 'prefer-standby'];

/** Whether `url` is a PostgreSQL URL with more than one host or a `target_session_attrs`: one for this module. */
export function isPostgresHostsUrl(url: string): boolean {
  if (!/^postgres(ql)?:\/\//.test(url)) return false;
  const { hostList, query } = split(url);
  return hostList.includes(',') || new URLSearchParams(query).has('target_session_attrs');
}

export function parsePostgresHostsUrl(url: string): PostgresHostsUrl {
  const scheme = /^(postgres(?:ql)?):\/\//.exec(url)?.[1];
  if (scheme === undefined) throw new InvalidPostgresUrl('a PostgreSQL URL starts with postgres:// or postgresql://');
  const { userInfo, hostList, path, query } = split(url);
  const hosts = hostList.split(',').map(parseHost);
  const params = new URLSearchParams(query);
  const target = params.get('target_session_attrs') ?? 'any';
  if (standbyTargets.includes(target)) {
    throw new InvalidPostgresUrl(`target_session_attrs=${target} chooses a standby, where Vexil cannot write (use read-write)`);
  }
  if (!targetSessionAttrs.includes(target)) {
    throw new InvalidPostgresUrl(`target_session_attrs must be one of ${targetSessionAttrs.join(', ')} (got "${target}")`);
  }
  const connectTimeout = params.get('connect_timeout');
  let connectTimeoutMs: number | undefined;
  if (connectTimeout !== null) {
    const seconds = Number(connectTimeout);
    if (!/^\d+$/.test(connectTimeout) || seconds < 1) {
      throw new InvalidPostgresUrl(`connect_timeout must be a whole number of seconds, at least 1 (got "${connectTimeout}")`);
    }
    connectTimeoutMs = seconds * 1000;
  }
  // What pg reads itself (sslmode, application_name...) stays in each host's URL.
  params.delete('target_session_attrs');
  params.delete('connect_timeout');
  const rest = params.toString();
  const credentials = userInfo === undefined ? '' : `${userInfo}@`;
  return {
    hosts,
    targetSessionAttrs: target as TargetSessionAttrs,
    connectTimeoutMs,
    urlFor: ({ host, port }, database) =>
      `${scheme}://${credentials}${host.includes(':') ? `[${host}]` : host}:${port}${database === undefined ? path : `/${encodeURIComponent(database)}`}${rest === '' ? '' : `?${rest}`}`,
  };
}

/**
 * The URL's parts, as written. The user information ends at the last `@` before the query (a
 * password may hold an unencoded `/`); the host list ends at the first `/` after it.
 */
function split(url: string): { userInfo?: string; hostList: string; path: string; query: string } {
  const afterScheme = url.slice(url.indexOf('://') + 3);
  const queryStart = afterScheme.indexOf('?');
  const beforeQuery = queryStart === -1 ? afterScheme : afterScheme.slice(0, queryStart);
  const query = queryStart === -1 ? '' : afterScheme.slice(queryStart + 1);
  const at = beforeQuery.lastIndexOf('@');
  const userInfo = at === -1 ? undefined : beforeQuery.slice(0, at);
  const authorityAndPath = beforeQuery.slice(at + 1);
  const slash = authorityAndPath.indexOf('/');
  return {
    userInfo,
    hostList: slash === -1 ? authorityAndPath : authorityAndPath.slice(0, slash),
    path: slash === -1 ? '' : authorityAndPath.slice(slash),
    query,
  };
}

function parseHost(text: string, index: number): PostgresHost {
  const which = `host ${index + 1} ("${text}")`;
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(.*))?$/.exec(text);
  let host: string;
  let port: string | undefined;
  if (bracketed) {
    host = bracketed[1] as string;
    port = bracketed[2];
  } else {
    const colon = text.lastIndexOf(':');
    host = colon === -1 ? text : text.slice(0, colon);
    port = colon === -1 ? undefined : text.slice(colon + 1);
    if (host.includes(':')) throw new InvalidPostgresUrl(`${which}: an IPv6 address is written in brackets, [::1]:5432`);
  }
  if (host === '') throw new InvalidPostgresUrl(`${which} has no host name`);
  if (!/^[A-Za-z0-9._:-]+$/.test(host)) throw new InvalidPostgresUrl(`${which}: not a host name or address`);
  if (port === undefined) return { host, port: DEFAULT_PORT };
  const number = Number(port);
  if (!/^\d+$/.test(port) || number < 1 || number > 65535) {
    throw new InvalidPostgresUrl(`${which}: the port must be a number from 1 to 65535`);
  }
  return { host, port: number };
}
