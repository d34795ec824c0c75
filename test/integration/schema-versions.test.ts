import type { Knex } from 'knex';
import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { migrations } from '../../db/migrations/index.js';
import { StartupError } from '../../src/startup-error.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const silent = pino({ level: 'silent' });

/** Knex's migrator over the project's migrations up to and including `last`: what an older Vexil ran. */
function migrationsUpTo(last: string): Knex.MigratorConfig {
  const names = Object.keys(migrations)
    .filter((name) => name <= last)
    .sort();
  return {
    migrationSource: {
      getMigrations: async () => names,
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => migrations[name]!,
    },
  };
}

const now = '2025-06-01T12:00:00.000Z';
const project = { ulid: 'prj_01JXOLDVEXIL00000000000001', key: 'legacy-shop', name: 'Legacy shop', description: 'made by 0001' };
const environment = {
  ulid: 'env_01JXOLDVEXIL00000000000001',
  project_ulid: project.ulid,
  key: 'production',
  name: 'Production',
  description: null,
  color: '#112233',
  comments_required: false,
  confirmation_required: false,
  revision: 1,
};

describeEachDatabase('a database migrated by another Vexil version', (db) => {
  let drop: (() => Promise<void>) | undefined;
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    await drop?.();
    app = undefined;
    drop = undefined;
  });

  it('made by the first release: the current server migrates it, keeps its data and has the latest schema', async () => {
    const database = await db.create();
    drop = database.drop;
    const old = openDatabase(database.url).knex;
    try {
      await old.migrate.latest(migrationsUpTo('0001_initial'));
      await old('projects').insert({ ...project, created_at: now, updated_at: now });
      await old('environments').insert({ ...environment, created_at: now, updated_at: now });
      expect(await old.schema.hasTable('public_audit_parts')).toBe(false);
    } finally {
      await old.destroy();
    }

    app = await startTestApp(db, { databaseUrl: database.url });
    const ran = (await app.knex('knex_migrations').orderBy('name').select('name')).map((row: { name: string }) => row.name);
    expect(ran).toEqual(Object.keys(migrations).sort());
    // The newest migration's tables and view are there.
    expect(await app.knex.schema.hasTable('public_audit_parts')).toBe(true);
    expect(await app.knex.schema.hasTable('public_audit_requests')).toBe(true);
    expect(await app.knex('public_audit_entries').count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });

    const found = await app.mgmt('GET', `/projects/${project.key}`);
    expect(found.status).toBe(200);
    expect(found.body.data).toMatchObject({ ulid: project.ulid, key: project.key, name: project.name, description: project.description });
    const environments = await app.mgmt('GET', `/projects/${project.key}/environments`);
    expect(environments.status).toBe(200);
    expect(environments.body.data.map((e: { key: string; color: string }) => [e.key, e.color])).toContainEqual(['production', '#112233']);
    // The old data is writable through the current code: a flag in the old environment.
    const created = await app.mgmt('POST', `/projects/${project.key}/flags`, {
      key: 'after-upgrade',
      name: 'After upgrade',
      type: 'boolean',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  });

  it('migrated by a newer Vexil: the start is refused with one line naming the migration this version lacks', async () => {
    const database = await db.create();
    drop = database.drop;
    const { knex } = openDatabase(database.url);
    try {
      await migrateToLatest(knex, silent);
      const newer = { name: '0099_from_a_newer_vexil', batch: 2, migration_time: new Date() };
      await knex('knex_migrations').insert(newer);
      // What Knex itself says of it, which names neither the cause nor the way out.
      await expect(knex.migrate.latest(migrationsUpTo('9999'))).rejects.toThrow(/migration directory is corrupt/);

      const refused = migrateToLatest(knex, silent);
      await expect(refused).rejects.toBeInstanceOf(StartupError);
      await expect(refused).rejects.toThrow(
        /^the database was migrated by a newer Vexil: it has run migration 0099_from_a_newer_vexil, which this version does not know; /,
      );
      await expect(refused).rejects.not.toThrow(/\n/);
      // Nothing was changed: the newer version's record stays, and the lock is free.
      expect(await knex('knex_migrations').where('name', newer.name).first('name')).toEqual({ name: newer.name });
      expect((await knex('knex_migrations_lock').first('is_locked')).is_locked).toBe(0);
    } finally {
      await knex.destroy();
    }

    // The same refusal at start, before any request is served.
    await expect(startTestApp(db, { databaseUrl: database.url })).rejects.toThrow(/migrated by a newer Vexil.*0099_from_a_newer_vexil/);
  });

  it('names every migration it does not know, in order', async () => {
    const database = await db.create();
    drop = database.drop;
    const { knex } = openDatabase(database.url);
    try {
      await migrateToLatest(knex, silent);
      await knex('knex_migrations').insert([
        { name: '0102_later_still', batch: 3, migration_time: new Date() },
        { name: '0101_later', batch: 2, migration_time: new Date() },
      ]);
      await expect(migrateToLatest(knex, silent)).rejects.toThrow(/it has run migrations 0101_later, 0102_later_still, which this version/);
    } finally {
      await knex.destroy();
    }
  });
});
