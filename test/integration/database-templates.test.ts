import type { Knex } from 'knex';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { describeEachDatabase, type TestDatabase } from '../support/databases.js';

async function tableNames(knex: Knex, dialect: TestDatabase['name']): Promise<string[]> {
  if (dialect === 'sqlite')
    return knex('sqlite_master').where('type', 'table').whereNot('name', 'like', 'sqlite_%').orderBy('name').pluck('name');
  const [rows] = (await knex.raw(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' ORDER BY 1",
  )) as [Array<{ name: string }>];
  return rows.map((row) => row.name);
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
