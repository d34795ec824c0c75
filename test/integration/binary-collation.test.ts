import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../db/migrations/index.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { describeEachDatabase, testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createAccountWithToken, createManagementToken } from './admin-support.js';

const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const onMariadb = testDatabases.some((db) => db.name === 'mariadb');
const silent = pino({ level: 'silent' });

/** A database made as an administrator would by hand: utf8mb4 with the server's default collation. */
async function defaultCollationDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `vexil_c_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: { uri: mysqlBase } as never });
  try {
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  } finally {
    await admin.destroy();
  }
  return {
    name,
    url: `${mysqlBase}/${name}`,
    drop: async () => {
      const k = knexFactory({ client: 'mysql2', connection: { uri: mysqlBase } as never });
      await k.raw(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => k.destroy());
    },
  };
}

/** Text columns (and tables) of the database whose collation is not utf8mb4_bin. */
async function nonBinary(knex: Knex, schema: string): Promise<string[]> {
  const [columns] = (await knex.raw(
    "SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME, ' ', COLLATION_NAME) AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND COLLATION_NAME IS NOT NULL AND COLLATION_NAME <> 'utf8mb4_bin'",
    [schema],
  )) as [Array<{ c: string }>];
  const [tables] = (await knex.raw(
    "SELECT CONCAT(TABLE_NAME, ' ', TABLE_COLLATION) AS c FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_COLLATION <> 'utf8mb4_bin'",
    [schema],
  )) as [Array<{ c: string }>];
  return [...columns, ...tables].map((r) => r.c);
}

describe.runIf(onMariadb)('MariaDB: every table and column compares exactly', () => {
  it('a database made by the previous release is converted, its rows kept, and lookups become exact', async () => {
    const database = await defaultCollationDatabase();
    // The previous release: migrations up to 0011, on a connection that names only the charset.
    const previous = knexFactory({ client: 'mysql2', connection: { uri: database.url, charset: 'utf8mb4' } as never });
    const names = Object.keys(migrations).filter((name) => name < '0012');
    try {
      await previous.migrate.latest({
        migrationSource: {
          getMigrations: async () => names,
          getMigrationName: (n: string) => n,
          getMigration: async (n: string) => migrations[n]!,
        },
      });
      expect(await nonBinary(previous, database.name)).toContain('accounts.email utf8mb4_general_ci');
      const now = '2026-01-01T00:00:00.000Z';
      await previous('accounts').insert({
        ulid: 'usr_01J00000000000000000000001',
        name: 'Ada',
        email: 'ada@example.com',
        role: 'owner',
        created_at: now,
        updated_at: now,
      });
      expect(await previous('accounts').where('email', 'ADA@example.com').first()).toBeDefined();
    } finally {
      await previous.destroy();
    }

    const { knex } = openDatabase(database.url);
    try {
      await migrateToLatest(knex, silent);
      expect(await nonBinary(knex, database.name)).toEqual([]);
      expect(await knex('accounts').where('email', 'ada@example.com').first('name')).toEqual({ name: 'Ada' });
      expect(await knex('accounts').where('email', 'ADA@example.com').first()).toBeUndefined();
      expect(await knex('accounts').where('ulid', 'USR_01J00000000000000000000001').first()).toBeUndefined();
    } finally {
      await knex.destroy();
      await database.drop();
    }
  });

  it('a new database with a case-insensitive default gets binary tables, also for tables made later', async () => {
    const database = await defaultCollationDatabase();
    const { knex } = openDatabase(database.url);
    try {
      await migrateToLatest(knex, silent);
      await knex.schema.createTable('made_later', (t) => {
        t.string('name', 20);
      });
      expect(await nonBinary(knex, database.name)).toEqual([]);
    } finally {
      await knex.destroy();
      await database.drop();
    }
  });
  it('a table a migration creates in its transaction without naming a collation is binary', async () => {
    const database = await defaultCollationDatabase();
    const { knex } = openDatabase(database.url);
    const names = [...Object.keys(migrations), '9999_made_in_a_transaction'];
    const later: Knex.Migration = {
      down: async () => {},
      up: async (trx: Knex) => {
        await trx.schema.createTable('made_in_a_transaction', (t) => {
          t.string('name', 20);
        });
      },
    };
    try {
      await knex.migrate.latest({
        migrationSource: {
          getMigrations: async () => names,
          getMigrationName: (n: string) => n,
          getMigration: async (n: string) => migrations[n] ?? later,
        },
      });
      expect(await nonBinary(knex, database.name)).toEqual([]);
    } finally {
      await knex.destroy();
      await database.drop();
    }
  });

  it('0019 converts a table or a column left with another collation, foreign keys kept', async () => {
    const database = await defaultCollationDatabase();
    const { knex } = openDatabase(database.url);
    try {
      await migrateToLatest(knex, silent);
      // As a migration run in a transaction left them: a table, and a column of a binary table,
      // with the database's case-insensitive default; the table is referenced by a foreign key.
      await knex.raw('ALTER TABLE flags MODIFY `name` VARCHAR(200) NOT NULL COLLATE utf8mb4_general_ci');
      await knex.raw('ALTER TABLE evaluation_hours DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci');
      await knex.raw('ALTER TABLE webhooks MODIFY `url` VARCHAR(2000) NOT NULL COLLATE utf8mb4_general_ci');
      expect(await nonBinary(knex, database.name)).toEqual(
        expect.arrayContaining(['flags.name utf8mb4_general_ci', 'webhooks.url utf8mb4_general_ci', 'evaluation_hours utf8mb4_general_ci']),
      );
      const foreignKeys = async () =>
        (
          (await knex.raw(
            'SELECT CONCAT(TABLE_NAME, ".", CONSTRAINT_NAME) AS fk FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? ORDER BY 1',
            [database.name],
          )) as [Array<{ fk: string }>]
        )[0].map((row) => row.fk);
      const before = await foreignKeys();
      await knex('knex_migrations').where('name', '0019_binary_collation').delete();
      await migrateToLatest(knex, silent);
      expect(await nonBinary(knex, database.name)).toEqual([]);
      expect(await foreignKeys()).toEqual(before);
    } finally {
      await knex.destroy();
      await database.drop();
    }
  });
});

describeEachDatabase('identifiers and e-mail addresses match exactly', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a ulid in another case or with spaces names nothing, DELETE included', async () => {
    const token = await createManagementToken(app, ['flags:read']);
    const member = await createAccountWithToken(app, 'member', []);
    for (const variant of [token.ulid.toUpperCase(), `${token.ulid}%20%20`, token.ulid.replace('mgt_', 'MGT_'), token.ulid.toLowerCase()]) {
      const del = await app.mgmt('DELETE', `/tokens/${variant}`, undefined, { skipContract: true });
      expect(del.status, `${variant} ${JSON.stringify(del.body)}`).toBe(404);
    }
    for (const variant of [member.ulid.toUpperCase(), `${member.ulid}%20`]) {
      expect((await app.mgmt('DELETE', `/accounts/${variant}`, undefined, { skipContract: true })).status, variant).toBe(404);
    }
    // Nothing above revoked or deleted anything.
    expect((await app.request('GET', '/management/v1/projects', { token: member.token })).status).toBe(200);
    // The token still works: nothing above revoked it.
    expect((await app.request('GET', '/management/v1/projects', { token: token.token, skipContract: true })).status).toBe(403);
  });

  it('audit-log filters by ulid match exactly: another case finds nothing, padding is refused', async () => {
    const token = await createManagementToken(app, ['flags:read']);
    await app.request('GET', '/management/v1/projects', { token: token.token, skipContract: true });
    await app.composition.publicAudit.flush();
    const entries = async (query: string) => app.mgmt('GET', `/audit-logs?${query}`);
    expect((await entries(`management_token_ulid=${token.ulid}`)).body.data.length).toBeGreaterThan(0);
    expect((await entries(`management_token_ulid=${token.ulid.toUpperCase()}`)).body.data).toEqual([]);
    for (const name of ['management_token_ulid', 'actor_ulid', 'subject_ulid']) {
      const padded = await entries(`${name}=${token.ulid}%20`);
      expect(padded.status, name).toBe(422);
      expect(padded.body.code, name).toBe('invalid_query');
      expect((await app.mgmt('GET', `/api-public-audit-logs?${name}=x%20`)).status, name).toBe(422);
    }
  });

  it('e-mail addresses are stored in lower case and refused when not valid', async () => {
    const email = `Mixed.${Date.now()}@Example.TEST`;
    const created = await app.mgmt('POST', '/accounts', { name: 'Mixed', email, role: 'admin' });
    expect(created.status).toBe(200);
    expect(created.body.data.email).toBe(email.toLowerCase());
    const again = await app.mgmt('POST', '/accounts', { name: 'Again', email: email.toUpperCase(), role: 'admin' });
    expect(again.status).toBe(422);
    for (const invalid of [` ${email}`, `${email}   `, 'not an address', 'a@b@c.test']) {
      const res = await app.mgmt('POST', '/accounts', { name: 'Bad', email: invalid, role: 'admin' });
      expect(res.status, invalid).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['email']);
    }
  });
});

describeEachDatabase('text that differs only in case is different text', (db) => {
  let app: TestApp;
  let database: { drop(): Promise<void> } | undefined;
  const p = '/projects/cases';
  beforeAll(async () => {
    // MariaDB: on a database made with the server's case-insensitive default, as an administrator would.
    if (db.name === 'mariadb') {
      const made = await defaultCollationDatabase();
      database = made;
      app = await startTestApp(db, { databaseUrl: made.url });
    } else {
      app = await startTestApp(db);
    }
    expect((await app.mgmt('POST', '/projects', { key: 'cases', name: 'Cases' })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('an Idempotency-Key in another case is another key: the request runs again', async () => {
    const post = (key: string, idempotencyKey: string) =>
      app.request('POST', `/management/v1${p}/flags`, {
        token: app.ownerToken,
        body: { key, name: key, type: 'boolean' },
        headers: { 'idempotency-key': idempotencyKey },
      });
    const first = await post('first', 'Create-Flag-1');
    expect(first.status).toBe(200);
    expect((await post('first', 'Create-Flag-1')).headers.get('x-idempotent-replayed')).toBe('true');
    // Another key with another body: a key matched without case would answer 422 (same key, other request).
    const other = await post('second', 'create-flag-1');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-idempotent-replayed')).toBeNull();
    expect(other.body.data.key).toBe('second');
  });

  it('segment members that differ only in case are different members', async () => {
    const created = await app.mgmt('POST', `${p}/segments`, { key: 'testers', name: 'Testers', included: ['Ada', 'ada'] });
    expect(created.status).toBe(200);
    expect((await app.mgmt('GET', `${p}/segments/testers`)).body.data.included).toEqual(['Ada', 'ada']);
  });
});
