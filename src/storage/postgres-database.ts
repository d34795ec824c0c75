import pg from 'pg';
import type { Logger } from 'pino';
import { StartupError } from '../startup-error.js';
import { isPostgresHostsUrl, parsePostgresHostsUrl } from './postgres-hosts-url.js';
import { findWritableHost, NoWritableHost } from './postgres-writable-host.js';

interface DriverError {
  code?: string;
  message?: string;
}

/** Where a start connects: what the messages name. */
interface Target {
  name: string;
  user: string;
  where: string;
}

/**
 * Before migrating on PostgreSQL: the database DATABASE_URL names is created when it does not
 * exist and the user may create it (UTF-8; text columns order bytewise through their own
 * COLLATE "C", binary-collation.ts); otherwise, like for a malformed URL, an unreachable server or
 * refused credentials, the start stops with one line that names the database and what to do.
 */
export async function ensurePostgresDatabase(givenUrl: string, logger: Logger, connectTimeoutMs = 10_000): Promise<void> {
  const url = await writableHostUrl(givenUrl, connectTimeoutMs);
  const target = targetOf(url);
  try {
    await query(url, 'SELECT 1', connectTimeoutMs);
    return;
  } catch (error) {
    // 3D000: invalid_catalog_name, the database does not exist.
    if ((error as DriverError).code !== '3D000') throw explain(error, target);
  }
  // The maintenance database every server has, to create the missing one from.
  const server = new URL(url);
  server.pathname = '/postgres';
  try {
    await query(server.toString(), `CREATE DATABASE ${quoteIdentifier(target.name)} ENCODING 'UTF8' TEMPLATE template0`, connectTimeoutMs);
    logger.info({ database: target.name }, 'created the database');
  } catch (error) {
    const code = (error as DriverError).code;
    // 42P04: duplicate_database, another instance created it meanwhile.
    if (code === '42P04') return;
    // 42501: insufficient_privilege (no CREATEDB).
    if (code === '42501') {
      throw new StartupError(
        `database "${target.name}" does not exist on ${target.where} and user "${target.user}" may not create it: ` +
          `create it (CREATE DATABASE ${quoteIdentifier(target.name)} ENCODING 'UTF8' OWNER ${quoteIdentifier(target.user)}) or grant the user CREATEDB`,
      );
    }
    throw explain(error, target);
  }
}

/** A URL of several hosts stands for the one that takes writes now; none at start stops the start. */
async function writableHostUrl(url: string, timeoutMs: number): Promise<string> {
  if (!isPostgresHostsUrl(url)) return url;
  const hosts = parsePostgresHostsUrl(url);
  try {
    return hosts.urlFor(await findWritableHost(hosts, { timeoutMs }));
  } catch (error) {
    if (error instanceof NoWritableHost) throw new StartupError(`DATABASE_URL: ${error.message}`);
    throw error;
  }
}

function targetOf(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError(
      'DATABASE_URL is not a valid URL: use postgres://user:password@host:port/DATABASE (percent-encode special characters)',
    );
  }
  const where = `${parsed.hostname || '(no host)'}:${parsed.port || '5432'}`;
  if (parsed.hostname === '') throw new StartupError('DATABASE_URL names no host: use postgres://user:password@HOST:port/database');
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (name === '' || name.includes('/')) {
    throw new StartupError(`DATABASE_URL names no database: use postgres://user:password@${where}/DATABASE`);
  }
  return { name, user: decodeURIComponent(parsed.username) || '(none)', where };
}

/** Runs one statement on a connection of its own, which listens for errors (a dying server never crashes the process). */
async function query(url: string, sql: string, connectTimeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function explain(error: unknown, { name, user, where }: Target): unknown {
  const e = error as DriverError;
  switch (e.code) {
    // invalid_password, invalid_authorization_specification (no such role, pg_hba refused)
    case '28P01':
    case '28000':
      return new StartupError(`${where} refused user "${user}" for database "${name}": check the user and password in DATABASE_URL`);
    // insufficient_privilege: the user may not CONNECT to the database.
    case '42501':
      return new StartupError(`user "${user}" may not connect to database "${name}" on ${where}: grant it CONNECT on the database`);
    case 'ECONNREFUSED':
    case 'ETIMEDOUT':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ECONNRESET':
      return new StartupError(`cannot reach the database server at ${where} for database "${name}" (${e.code})`);
    case '57P03':
      return new StartupError(`the database server at ${where} is not accepting connections yet (starting up or shutting down)`);
    default:
      if (/timeout/i.test(e.message ?? '')) {
        return new StartupError(`cannot reach the database server at ${where} for database "${name}" (no answer in time)`);
      }
      return error;
  }
}
