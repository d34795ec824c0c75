import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { inTransaction } from '../../src/storage/transaction.js';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A loopback port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const mariadb = testDatabases.find((db) => db.name === 'mariadb');

/**
 * Several hosts in a mysql:// DATABASE_URL (src/storage/mysql-hosts.ts), on the shared MariaDB:
 * a first host that refuses connections is passed over, at start and for every new connection,
 * and /ready says which host is in use. (The Galera fault test covers a node dying under load.)
 */
describe.runIf(mariadb)('several hosts in DATABASE_URL [mariadb]', () => {
  let app: TestApp;
  let deadHost = '';
  let liveHost = '';

  beforeAll(async () => {
    const database = await mariadb!.createMigrated();
    const url = new URL(database.url);
    liveHost = url.host;
    deadHost = `127.0.0.1:${await closedPort()}`;
    const databaseUrl = `mysql://${url.username}${url.password ? `:${url.password}` : ''}@${deadHost},${liveHost}${url.pathname}`;
    app = await startTestApp(mariadb!, { databaseUrl });
    afterAll(async () => {
      await app?.close();
      await database.drop();
    });
  });

  it('starts and serves on the next host when the first refuses, and /ready names it', async () => {
    const created = await app.mgmt('POST', '/projects', {
      key: 'hosts',
      name: 'Hosts',
      environments: [{ key: 'production', name: 'Production' }],
    });
    expect(created.status).toBe(200);
    const ready = await app.request('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.database_host).toEqual({ host: liveHost, state: 'connected', hosts: [deadHost, liveHost], galera: false });
  });

  it('runs a transaction again on a new connection when its connection is lost before COMMIT', async () => {
    let attempts = 0;
    const key = `lost-${Date.now().toString(36)}`;
    await inTransaction(app.knex, async (trx) => {
      attempts++;
      const id = ((await trx.raw('SELECT CONNECTION_ID() AS id'))[0] as { id: number }[])[0]!.id;
      const now = new Date().toISOString();
      await trx('projects').insert({ ulid: newId('project'), key, name: key, description: '', created_at: now, updated_at: now });
      // The first attempt's connection is killed from another one, as a dying server would drop it.
      if (attempts === 1) {
        await app.knex.raw(`KILL ${Number(id)}`);
        await trx.raw('SELECT 1');
      }
    });
    expect(attempts).toBe(2);
    const rows = await app.knex('projects').where({ key });
    expect(rows).toHaveLength(1);
  });
});
