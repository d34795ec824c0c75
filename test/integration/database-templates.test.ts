import type { Knex } from 'knex';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { describeEachDatabase, type TestDatabase } from '../support/databases.js';

async function tableNames(knex: Knex, dialect: TestDatabase['name']): Promise<string[]> {
  if (dialect === 'sqlite')
    return knex('sqlite_master').where('type', 'table').whereNot('name', 'like', 'sqlite_%').orderBy('name').pluck('name');
  if (dialect === 'postgres') {
    const { rows } = (await knex.raw(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
    )) as { rows: Array<{ name: string }> };
    return rows.map((row) => row.name);
  }
  const [rows] = (await knex.raw(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY 1",
  )) as [Array<{ name: string }>];
  return rows.map((row) => row.name);
}

/** PostgreSQL: each column (type, collation, default), index, constraint and view of the schema. */
async function postgresDefinitions(knex: Knex): Promise<string[]> {
  const lines = async (sql: string) => ((await knex.raw(sql)) as { rows: Array<{ line: string }> }).rows.map((row) => row.line);
  return [
    ...(await lines(
      `SELECT concat_ws(' ', table_name, column_name, data_type, character_maximum_length, collation_name, is_nullable, column_default) AS line
         FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    )),
    ...(await lines('SELECT indexdef AS line FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname')),
    ...(await lines(
      `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line
         FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY conname`,
    )),
    ...(await lines("SELECT viewname || ': ' || definition AS line FROM pg_views WHERE schemaname = current_schema() ORDER BY viewname")),
  ];
}

/** MariaDB: each view's definition, without the name of the database its tables are read from (each copy has its own). */
async function viewDefinitions(knex: Knex): Promise<string[]> {
  const [rows] = (await knex.raw(
    'SELECT table_name AS name, view_definition AS definition, DATABASE() AS `schema` FROM information_schema.views WHERE table_schema = DATABASE() ORDER BY 1',
  )) as [Array<{ name: string; definition: string; schema: string }>];
  return rows.map((row) => `view ${row.name}: ${row.definition.replaceAll(`\`${row.schema}\`.`, '')}`);
}

/** Each table's definition (with its indexes and keys) and rows, Knex's migration times aside. */
async function schemaOf(knex: Knex, dialect: TestDatabase['name']): Promise<string[]> {
  const entries: string[] = [];
  if (dialect === 'sqlite') {
    const objects = await knex('sqlite_master')
      .whereNot('name', 'like', 'sqlite_%')
      .orderBy(['type', 'name'])
      .select('type', 'name', 'sql');
    entries.push(...objects.map((object) => JSON.stringify(object)));
  }
  for (const name of await tableNames(knex, dialect)) {
    if (dialect === 'mariadb') {
      const [[created]] = (await knex.raw('SHOW CREATE TABLE ??', [name])) as [Array<Record<string, string>>];
      entries.push(created!['Create Table']!);
    }
    const rows = await knex(name).select('*').orderBy(1);
    entries.push(`${name}: ${JSON.stringify(rows.map(({ migration_time: _time, ...row }) => row))}`);
  }
  if (dialect === 'mariadb') entries.push(...(await viewDefinitions(knex)));
  if (dialect === 'postgres') entries.push(...(await postgresDefinitions(knex)));
  return entries;
}

// Test apps start on a copy of the run's migrated template (test/support/database-templates.ts):
// the copy must be the schema a migration builds, or every suite would test another schema.
describeEachDatabase('database templates', (db) => {
  const opened: Array<{ knex: Knex; drop(): Promise<void> }> = [];
  const open = async (fromTemplate: boolean) => {
    const database = fromTemplate ? await db.createMigrated() : await db.create();
    const { knex } = openDatabase(database.url);
    opened.push({ knex, drop: database.drop });
    return knex;
  };
  let copied: Knex;
  let migrated: Knex;

  beforeAll(async () => {
    copied = await open(true);
    migrated = await open(false);
    await migrateToLatest(migrated, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    for (const { knex, drop } of opened) {
      await knex.destroy();
      await drop();
    }
  });

  it('copies the schema a migration builds: tables, indexes, keys, collations and Knex bookkeeping', async () => {
    const expected = await schemaOf(migrated, db.name);
    expect(expected.filter((entry) => entry.startsWith('knex_migrations: [{'))).toHaveLength(1);
    expect(await schemaOf(copied, db.name)).toEqual(expected);
  });

  it('leaves a start nothing to migrate', async () => {
    const before = await copied('knex_migrations').pluck('name');
    await migrateToLatest(copied, pino({ level: 'silent' }));
    expect(await copied('knex_migrations').pluck('name')).toEqual(before);
  });
});
