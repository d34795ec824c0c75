import mysql from 'mysql2/promise';
import type { Logger } from 'pino';
import { StartupError } from '../startup-error.js';
import { mysqlHostsOf } from './mysql-hosts.js';

interface DriverError {
  code?: string;
  errno?: number;
}

/**
 * Before migrating on MySQL/MariaDB: the database DATABASE_URL names is created when it does not
 * exist and the user may create it (utf8mb4, binary collation: keys compare case-sensitively);
 * otherwise, like for an unreachable server or refused credentials, the start stops with one
 * line that names the database and what to do.
 */
export async function ensureMysqlDatabase(url: string, logger: Logger, connectTimeoutMs = 10_000): Promise<void> {
  // Several hosts (mysql-hosts.ts): the first that can be reached is enough.
  const list = mysqlHostsOf(url);
  const failures: UnreachableHost[] = [];
  for (const host of list.hosts) {
    try {
      return await ensureOnHost(list.urlFor(host), logger, connectTimeoutMs);
    } catch (error) {
      if (!(error instanceof UnreachableHost)) throw error;
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  throw new StartupError(`cannot reach any database server of DATABASE_URL: ${failures.map((f) => f.reason).join('; ')}`);
}

/** A server that cannot be reached, or a Galera node not ready: the next host may do. */
class UnreachableHost extends StartupError {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

async function ensureOnHost(url: string, logger: Logger, connectTimeoutMs: number): Promise<void> {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const user = decodeURIComponent(parsed.username) || '(none)';
  const where = `${parsed.hostname}:${parsed.port || '3306'}`;
  if (name === '') throw new StartupError(`DATABASE_URL names no database: use mysql://user:password@${where}/DATABASE`);
  // MariaDB answers a user without rights on a database "access denied" whether it exists or not.
  let missing: 'missing' | 'missing or denied';
  try {
    await (await mysql.createConnection({ uri: parsed.toString(), connectTimeout: connectTimeoutMs })).end();
    return;
  } catch (error) {
    const code = (error as DriverError).code;
    if (code === 'ER_BAD_DB_ERROR') missing = 'missing';
    else if (code === 'ER_DBACCESS_DENIED_ERROR') missing = 'missing or denied';
    else throw explain(error, name, user, where);
  }
  const server = new URL(parsed);
  server.pathname = '/';
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({ uri: server.toString(), connectTimeout: connectTimeoutMs });
  } catch (error) {
    throw explain(error, name, user, where);
  }
  try {
    await conn.query(`CREATE DATABASE IF NOT EXISTS ${mysql.escapeId(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    logger.info({ database: name }, 'created the database');
  } catch (error) {
    if (isAccessDenied(error)) {
      const create = `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`;
      throw new StartupError(
        missing === 'missing'
          ? `database "${name}" does not exist on ${where} and user "${user}" may not create it: create it (${create}) or grant the user CREATE`
          : `database "${name}" does not exist on ${where} or user "${user}" may not use it, and the user may not create it: ` +
              `create it if needed (${create}) and grant the user its privileges`,
      );
    }
    throw error;
  } finally {
    await conn.end();
  }
}

function isAccessDenied(error: unknown): boolean {
  const code = (error as DriverError).code;
  return code === 'ER_DBACCESS_DENIED_ERROR' || code === 'ER_SPECIFIC_ACCESS_DENIED_ERROR' || code === 'ER_ACCESS_DENIED_ERROR';
}

function explain(error: unknown, name: string, user: string, where: string): unknown {
  switch ((error as DriverError).code) {
    case 'ER_ACCESS_DENIED_ERROR':
      return new StartupError(`${where} refused user "${user}" for database "${name}": check the user and password in DATABASE_URL`);
    case 'ECONNREFUSED':
    case 'ETIMEDOUT':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ER_UNKNOWN_COM_ERROR':
      return new UnreachableHost(
        `cannot reach the database server at ${where} for database "${name}" (${(error as DriverError).code})`,
        `${where} ${(error as DriverError).code}`,
      );
    default:
      return error;
  }
}
