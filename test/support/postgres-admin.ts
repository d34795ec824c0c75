/**
 * The test harness's PostgreSQL administration: whether the server answers, and databases made
 * (empty, or as copies of the run's migrated template: database-templates.ts) and dropped.
 */
import pg from 'pg';

export const postgresBase = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** Runs statements one after another on a connection of their own to `serverUrl`'s maintenance database. */
export async function postgresAdmin(serverUrl: string, statements: readonly string[], connectTimeoutMs = 10_000): Promise<void> {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: connectTimeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether a PostgreSQL server answers `SELECT 1` at `url` within `connectTimeoutMs`. */
export async function postgresAnswers(url: string, connectTimeoutMs: number): Promise<boolean> {
  try {
    await postgresAdmin(url, ['SELECT 1'], connectTimeoutMs);
    return true;
  } catch {
    return false;
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Creates database `name`, a copy of `template` when given. A template must have no other
 * session while it is copied: a copy that meets one (55006, object_in_use) is tried again.
 */
export async function createPostgresDatabase(serverUrl: string, name: string, template?: string): Promise<void> {
  const sql = `CREATE DATABASE ${quote(name)} ENCODING 'UTF8' TEMPLATE ${template ? quote(template) : 'template0'}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await postgresAdmin(serverUrl, [sql]);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
  }
}

/** Drops database `name`, ending its sessions (a suite's app that did not close cannot keep it). */
export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  await postgresAdmin(serverUrl, [`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`]);
}

/** `serverUrl` with database `name` as its path. */
export function postgresDatabaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
