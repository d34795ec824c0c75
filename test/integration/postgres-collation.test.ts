import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { dropPostgresDatabase, postgresAdmin, postgresBase, postgresDatabaseUrl } from '../support/postgres-admin.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const postgres = testDatabases.find((db) => db.name === 'postgres');

/**
 * A PostgreSQL database made with a language's collation as its default (German, by ICU: `a`,
 * `ä`, `a_b`, `a-b`, `a0`, `ab`, `b`, `B`), as an administrator may make it: Vexil's text columns
 * carry their own byte-order collation, so lists come back in the order the other dialects give.
 */
describe.runIf(postgres)("a PostgreSQL database whose default collation is a language's", () => {
  const name = `vexil_t_${randomBytes(6).toString('hex')}`;
  let app: TestApp;

  beforeAll(async () => {
    await postgresAdmin(postgresBase, [
      `CREATE DATABASE "${name}" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'de' LOCALE 'C.UTF-8'`,
    ]);
    // An empty database: the app's start migrates it.
    app = await startTestApp(postgres!, { databaseUrl: postgresDatabaseUrl(postgresBase, name) });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await dropPostgresDatabase(postgresBase, name);
  });

  it('orders keys by code point, as SQLite and MySQL do', async () => {
    const [{ collation }] = (await app.knex.raw('SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()')).rows;
    expect(collation).toBe('C.UTF-8');
    const { rows } = await app.knex.raw("SELECT string_agg(k, ' ' ORDER BY k) AS keys FROM unnest(ARRAY['a', 'a-b', 'a0', 'a_b', 'ab']) k");
    expect(rows[0].keys).not.toBe('a a-b a0 a_b ab');
    expect(
      (await app.mgmt('POST', '/projects', { key: 'order', name: 'Order', environments: [{ key: 'production', name: 'Production' }] }))
        .status,
    ).toBe(200);
    for (const key of ['ab', 'a_b', 'a-b', 'a0', 'a']) {
      expect((await app.mgmt('POST', '/projects/order/flags', { key, name: key, type: 'boolean' })).status).toBe(200);
    }
    const exported = await app.mgmt('GET', '/projects/order/configuration');
    expect(exported.body.flags.map((flag: { key: string }) => flag.key)).toEqual(['a', 'a-b', 'a0', 'a_b', 'ab']);
  });
});
