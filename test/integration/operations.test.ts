import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { compose } from '../../src/composition-root.js';
import { loadConfig, type Config } from '../../src/config.js';
import { describeEachDatabase, type TestDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, testConfig, type TestApp } from '../support/test-app.js';
import { waitFor } from './public-fixtures.js';

/** A GET written byte for byte on a socket, with one extra header line; the status and headers answered. */
async function rawGet(port: number, path: string, headerLine: Buffer): Promise<{ status: number; headers: Record<string, string> }> {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`), headerLine, Buffer.from('\r\n\r\n')]),
  );
  await new Promise((resolve) => socket.once('close', resolve));
  const [head = ''] = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}

// What a load balancer and a browser application on another origin need from an instance.
/** What /ready says of the database host: MySQL/MariaDB only, the one host of the URL, not a Galera node. */
function databaseHostOf(db: TestDatabase, url: string) {
  if (db.name !== 'mariadb') return {};
  const host = /@([^/]+)\//.exec(url)?.[1] ?? '';
  return { database_host: { host, state: 'connected', hosts: [host], galera: false } };
}

describeEachDatabase('operations: health, readiness, request ids, CORS', (db) => {
  let app: TestApp;
  let clientKey: string;
  beforeAll(async () => {
    app = await startTestApp(db);
    await expectOk(app, 'POST', '/projects', {
      key: `ops-${Date.now().toString(36)}`,
      name: 'Ops',
      environments: [{ key: 'production', name: 'Production' }],
    });
    const project = (await app.mgmt('GET', '/projects')).body.data.at(-1).key;
    clientKey = (await expectOk(app, 'POST', `/projects/${project}/environments/production/keys`, { kind: 'client' })).key;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers liveness and readiness without a key, and turns readiness off while shutting down', async () => {
    const health = await app.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await app.request('GET', '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { database: true, snapshots: true, accepting_traffic: true },
      redis: 'not_configured',
      ...databaseHostOf(db, app.composition.core.config.databaseUrl),
    });
    app.composition.readiness.shuttingDown = true;
    const draining = await app.request('GET', '/ready');
    expect(draining.status).toBe(503);
    expect(draining.body).toMatchObject({ status: 'not_ready', reasons: ['shutting down'] });
    app.composition.readiness.shuttingDown = false;
    // A process that has taken its port but not finished starting (first start, VEXIL_IMPORT_FILE).
    app.composition.readiness.starting = true;
    const starting = await app.request('GET', '/ready');
    expect(starting.status).toBe(503);
    expect(starting.body).toMatchObject({
      status: 'not_ready',
      checks: { database: true, accepting_traffic: false },
      reasons: ['starting'],
    });
    app.composition.readiness.starting = false;
    // Never audited.
    const audited = await app.knex('public_audit_entries').where('http_path', 'like', '%ready%').count({ n: '*' });
    expect(Number((audited as Array<{ n: number }>)[0]!.n)).toBe(0);
  });

  it('answers every request with an X-Request-Id, keeping a sane one and replacing anything else', async () => {
    const fresh = await app.request('GET', '/health');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.request('GET', '/management/v1/projects', {
      token: app.ownerToken,
      headers: { 'x-request-id': 'trace-42.a_b' },
    });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a_b');
    for (const bad of ['x'.repeat(10_000), 'has space', 'a'.repeat(129)]) {
      const res = await fetch(`${app.baseUrl}/health`, { headers: { 'x-request-id': bad } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('never echoes an X-Request-Id with control characters or bytes outside ASCII (sent as raw bytes)', async () => {
    const port = Number(new URL(app.baseUrl).port);
    // fetch refuses to send these; a raw socket sends exactly the bytes given.
    for (const bad of [
      Buffer.from('evil\tid'),
      Buffer.from('evil\u0001id', 'latin1'),
      Buffer.from('evil\u007fid', 'latin1'),
      Buffer.from('id-\u00e9', 'utf8'),
      Buffer.from('x'.repeat(10_000) + '\t'),
    ]) {
      const answer = await rawGet(port, '/health', Buffer.concat([Buffer.from('X-Request-Id: '), bad]));
      // Either Node's parser refuses the request (400, no id at all) or Vexil answers with an id of its own.
      const echoed = answer.headers['x-request-id'];
      if (answer.status === 400) expect(echoed).toBeUndefined();
      else {
        expect(answer.status).toBe(200);
        expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
  });

  it('lets browsers on other origins call the public API and OFREP, not the management API', async () => {
    const preflight = await fetch(`${app.baseUrl}/v1/payload`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-vexil-api-key, x-vexil-context, if-none-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['x-vexil-api-key', 'x-vexil-context', 'x-vexil-default-value', 'if-none-match'])
      expect(allowed).toContain(header);
    const payload = await fetch(`${app.baseUrl}/v1/payload`, {
      headers: { origin: 'https://app.example', 'x-vexil-api-key': clientKey, 'x-vexil-context': '{"type":"user","identifier":"u-1"}' },
    });
    expect(payload.status).toBe(200);
    expect(payload.headers.get('access-control-allow-origin')).toBe('*');
    expect(payload.headers.get('access-control-expose-headers')).toContain('ETag');
    const ofrep = await fetch(`${app.baseUrl}/ofrep/v1/evaluate/flags`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(ofrep.status).toBe(204);
    const management = await fetch(`${app.baseUrl}/management/v1/projects`, {
      headers: { origin: 'https://app.example', authorization: `Bearer ${app.ownerToken}` },
    });
    expect(management.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describeEachDatabase('operations: CORS settings', (db) => {
  let listed: TestApp;
  beforeAll(async () => {
    listed = await startTestApp(db, { config: { corsOrigins: ['https://shop.example'] } });
  });
  afterAll(async () => {
    await listed?.close();
  });

  it('allows only the listed origins', async () => {
    const ok = await fetch(`${listed.baseUrl}/v1/flags`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(ok.headers.get('vary')).toContain('Origin');
    const other = await fetch(`${listed.baseUrl}/v1/flags`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describeEachDatabase('operations: readiness while starting', (db) => {
  it('answers 503 "snapshots loading" until every environment is loaded, then 200', async () => {
    const database = await db.create();
    const config: Config = { ...loadConfig({}), ...testConfig, databaseUrl: database.url };
    const composition = await compose(config, { logger: pino({ level: 'silent' }) });
    const server: Server = await new Promise((resolve) => {
      const s = createApp(composition).listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ready`;
    try {
      // Listening, background tasks (and with them the first snapshot load) not started yet.
      const starting = await fetch(url);
      expect(starting.status).toBe(503);
      expect(await starting.json()).toEqual({
        status: 'not_ready',
        checks: { database: true, snapshots: false, accepting_traffic: true },
        redis: 'not_configured',
        ...databaseHostOf(db, database.url),
        reasons: ['snapshots loading'],
      });
      for (const task of composition.tasks) task.start();
      await waitFor(async () => (await fetch(url)).status === 200, 5000, 'ready');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await composition.close();
      await database.drop();
    }
  });
});
