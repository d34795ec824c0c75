/**
 * Migrated database templates, built once per Vitest run (test/support/global-setup.ts) and copied
 * for each test app: a migration run on MariaDB takes seconds (thirteen migrations, table
 * rebuilds), a copy of the migrated schema a fraction of that. The templates are migrated by the
 * server's own code (openDatabase, migrateToLatest), so a copy is the schema a start would build;
 * the server's own start then finds every migration done.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { createPostgresDatabase, postgresDatabaseUrl } from './postgres-admin.js';

export interface DatabaseTemplates {
  /** A migrated SQLite file, copied for each database (its directory is removed at teardown). */
  sqliteFile?: string;
  /** The statements that build the migrated schema and its rows (Knex's own) in an empty MariaDB database. */
  mariadbStatements?: string[];
  /** A migrated PostgreSQL database, copied by CREATE DATABASE ... TEMPLATE (dropped at teardown). */
  postgresTemplate?: string;
}

// What global-setup.ts provides and databases.ts injects.
declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

const quiet = pino({ level: 'silent' });

export async function buildSqliteTemplate(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-template-'));
  const file = path.join(dir, 'vexil.db');
  const { knex } = openDatabase(`sqlite:${file}`);
  try {
    await migrateToLatest(knex, quiet);
  } finally {
    // The last connection closing checkpoints the write-ahead log into the file.
    await knex.destroy();
  }
  return file;
}

/**
 * Migrates a scratch database at `serverUrl` (mysql://user@host:port), reads back each table's
 * CREATE TABLE and the rows migrations left (Knex's bookkeeping), and drops it.
 */
export async function buildMariadbTemplate(serverUrl: string, name: string): Promise<string[]> {
  const admin = knexFactory({ client: 'mysql2', connection: { uri: serverUrl } as never });
  try {
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    const { knex } = openDatabase(`${serverUrl}/${name}`);
    try {
      await migrateToLatest(knex, quiet);
      return await schemaStatements(knex);
    } finally {
      await knex.destroy();
    }
  } finally {
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.destroy();
  }
}

async function schemaStatements(knex: Knex): Promise<string[]> {
  const [tables] = (await knex.raw(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY table_name",
  )) as [Array<{ name: string }>];
  const statements: string[] = [];
  const rows: string[] = [];
  for (const { name } of tables) {
    const [[created]] = (await knex.raw('SHOW CREATE TABLE ??', [name])) as [Array<Record<string, string>>];
    statements.push(created!['Create Table']!);
    const data = await knex(name).select('*');
    if (data.length > 0) rows.push(knex(name).insert(data).toString());
  }
  // Views after every table they read; made again without their definer and without naming the
  // template's database, so that they read the copy's tables.
  const [[current]] = (await knex.raw('SELECT DATABASE() AS `schema`')) as [Array<{ schema: string }>];
  const schema = current!.schema;
  const [views] = (await knex.raw(
    'SELECT table_name AS name FROM information_schema.views WHERE table_schema = DATABASE() ORDER BY table_name',
  )) as [Array<{ name: string }>];
  for (const { name } of views) {
    const [[created]] = (await knex.raw('SHOW CREATE VIEW ??', [name])) as [Array<Record<string, string>>];
    statements.push(created!['Create View']!.replace(/ DEFINER=\S+/, '').replaceAll(`\`${schema}\`.`, ''));
  }
  return [...statements, ...rows];
}

/** Creates database `name` at `serverUrl` from the template's statements, in one round trip. */
export async function createFromMariadbTemplate(serverUrl: string, name: string, statements: string[]): Promise<void> {
  const admin = knexFactory({ client: 'mysql2', connection: { uri: serverUrl, multipleStatements: true } as never });
  try {
    await admin.raw(
      [
        `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
        `USE \`${name}\``,
        // Tables come in name order: a foreign key may name a table created after it.
        'SET FOREIGN_KEY_CHECKS = 0',
        ...statements,
        'SET FOREIGN_KEY_CHECKS = 1',
        '',
      ].join(';\n'),
    );
  } finally {
    await admin.destroy();
  }
}

/**
 * Migrates database `name` at `serverUrl` (postgres://user@host:port), to be copied as a template.
 * Its pool is closed before it is used: a template must have no session while it is copied.
 */
export async function buildPostgresTemplate(serverUrl: string, name: string): Promise<string> {
  await createPostgresDatabase(serverUrl, name);
  const { knex } = openDatabase(postgresDatabaseUrl(serverUrl, name));
  try {
    await migrateToLatest(knex, quiet);
  } finally {
    await knex.destroy();
  }
  return name;
}
