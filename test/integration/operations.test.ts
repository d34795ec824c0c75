import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// What a load balancer and a browser application on another origin need from an instance.
describeEachDatabase('operations: health, readiness, request ids, CORS', (db) => {
  let app: TestApp;
  let clientKey: string;
  beforeAll(async () => {
    app = await startTestApp(db);
    await expectOk(app, 'POST', '/projects', { key: `ops-${Date.now().toString(36)}`, name: 'Ops', environments: [{ key: 'production', name: 'Production' }] });
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
    expect(ready.body).toEqual({ status: 'ready', checks: { database: true, accepting_traffic: true } });
    app.composition.readiness.shuttingDown = true;
    const draining = await app.request('GET', '/ready');
    expect(draining.status).toBe(503);
    expect(draining.body).toMatchObject({ status: 'not_ready', reasons: ['shutting down'] });
    app.composition.readiness.shuttingDown = false;
    // A process that has taken its port but not finished starting (first start, VEXIL_IMPORT_FILE).
    app.composition.readiness.starting = true;
    const starting = await app.request('GET', '/ready');
    expect(starting.status).toBe(503);
    expect(starting.body).toMatchObject({ status: 'not_ready', checks: { database: true, accepting_traffic: false }, reasons: ['starting'] });
    app.composition.readiness.starting = false;
    // Never audited.
    const audited = await app.knex('public_audit_entries').where('http_path', 'like', '%ready%').count({ n: '*' });
    expect(Number((audited as Array<{ n: number }>)[0]!.n)).toBe(0);
  });

  it('answers every request with an X-Request-Id, keeping a sane one and replacing anything else', async () => {
    const fresh = await app.request('GET', '/health');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.request('GET', '/management/v1/projects', { token: app.ownerToken, headers: { 'x-request-id': 'trace-42.a_b' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.a_b');
    for (const bad of ['x'.repeat(10_000), 'evil\u0007id', 'has space']) {
      const res = await fetch(`${app.baseUrl}/health`, { headers: { 'x-request-id': bad } }).catch(() => undefined);
      if (res) expect(res.headers.get('x-request-id')).not.toBe(bad);
    }
  });

  it('lets browsers on other origins call the public API and OFREP, not the management API', async () => {
    const preflight = await fetch(`${app.baseUrl}/v1/payload`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-vexil-api-key, x-vexil-context, if-none-match' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['x-vexil-api-key', 'x-vexil-context', 'x-vexil-default-value', 'if-none-match']) expect(allowed).toContain(header);
    const payload = await fetch(`${app.baseUrl}/v1/payload`, { headers: { origin: 'https://app.example', 'x-vexil-api-key': clientKey, 'x-vexil-context': '{"type":"user","identifier":"u-1"}' } });
    expect(payload.status).toBe(200);
    expect(payload.headers.get('access-control-allow-origin')).toBe('*');
    expect(payload.headers.get('access-control-expose-headers')).toContain('ETag');
    const ofrep = await fetch(`${app.baseUrl}/ofrep/v1/evaluate/flags`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(ofrep.status).toBe(204);
    const management = await fetch(`${app.baseUrl}/management/v1/projects`, { headers: { origin: 'https://app.example', authorization: `Bearer ${app.ownerToken}` } });
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
    const ok = await fetch(`${listed.baseUrl}/v1/flags`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(ok.headers.get('vary')).toContain('Origin');
    const other = await fetch(`${listed.baseUrl}/v1/flags`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
