import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { PausableProxy } from '../support/pausable-proxy.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createEnvironmentKey } from './admin-support.js';

const postgres = testDatabases.find((db) => db.name === 'postgres');
const acquireMs = 800;
const queryMs = 1200;
/** Waiting for a connection plus one query at most, and slack for a machine busy with other suites. */
const limitMs = acquireMs + queryMs + 3000;

/**
 * PostgreSQL behind a proxy this test freezes (connections open, nothing answered) and cuts (every
 * connection closed, as when the server dies): writes answer 503 within the timeouts, never hang;
 * evaluations answer from memory; the process survives the connections' errors (a pg client
 * without an `error` listener would crash it); and it works again once the server answers.
 */
describe.runIf(postgres)('PostgreSQL frozen and cut away', () => {
  let proxy: PausableProxy;
  let app: TestApp;
  let database: { url: string; drop(): Promise<void> };
  let serverKey = '';
  let n = 0;

  const createProject = async () => {
    const key = `outage-${++n}`;
    const started = Date.now();
    // The document lists no 503 for this operation (as the MariaDB outage test, which checks it with fetch).
    const res = await app.mgmt(
      'POST',
      '/projects',
      { key, name: key, environments: [{ key: 'production', name: 'Production' }] },
      { skipContract: true },
    );
    return { key, status: res.status, body: res.body, ms: Date.now() - started, retryAfter: res.headers.get('retry-after') };
  };
  const evaluate = () => app.request('GET', '/v1/flags', { apiKey: serverKey });

  beforeAll(async () => {
    database = await postgres!.createMigrated();
    const target = new URL(database.url);
    proxy = new PausableProxy(target.hostname, Number(target.port || 5432));
    const port = await proxy.start();
    target.port = String(port);
    app = await startTestApp(postgres!, {
      databaseUrl: target.toString(),
      config: { databaseAcquireTimeoutMs: acquireMs, databaseQueryTimeoutMs: queryMs },
    });
    expect((await createProject()).status).toBe(200);
    serverKey = (await createEnvironmentKey(app, 'outage-1', 'production', 'server')).key;
    expect((await evaluate()).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    proxy?.resume();
    await app?.close();
    await proxy?.stop();
    await database?.drop();
  });

  it('answers a write 503 within the timeouts while frozen, evaluations from memory, and writes again after', async () => {
    proxy.pause();
    const frozen = await createProject();
    expect(frozen.status, JSON.stringify(frozen.body)).toBe(503);
    expect(frozen.body).toMatchObject({ status: 'error', code: 'database_unavailable' });
    expect(frozen.retryAfter).not.toBeNull();
    expect(frozen.ms).toBeLessThan(limitMs);
    expect((await evaluate()).status).toBe(200);
    proxy.resume();
    let after = await createProject();
    for (let i = 0; i < 20 && after.status !== 200; i++) after = await createProject();
    expect(after.status).toBe(200);
    // Nothing half written: the refused project is absent, the later one whole.
    expect((await app.mgmt('GET', `/projects/${frozen.key}`)).status).toBe(404);
    expect((await app.mgmt('GET', `/projects/${after.key}/environments/production`)).status).toBe(200);
  }, 60_000);

  it('survives every connection cut at once, answering 503 or 200 but never failing otherwise, and reconnects', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      const writing = Promise.all(Array.from({ length: 4 }, () => createProject()));
      proxy.cut();
      for (const attempt of await writing) {
        statuses.push(attempt.status);
        expect(attempt.ms).toBeLessThan(limitMs);
      }
    }
    expect(
      statuses.every((status) => status === 200 || status === 503),
      JSON.stringify(statuses),
    ).toBe(true);
    let after = await createProject();
    for (let i = 0; i < 20 && after.status !== 200; i++) after = await createProject();
    expect(after.status).toBe(200);
    expect((await app.request('GET', '/ready')).status).toBe(200);
  }, 60_000);
});
