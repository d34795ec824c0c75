import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createProject, uniqueKey } from './admin-support.js';

const password = 'correct horse battery staple';

// Headers every answer carries, and those of the answers that hand out a secret or a session.
describe('response headers', () => {
  let app: TestApp;
  let projectKey: string;
  let ownerEmail: string;
  beforeAll(async () => {
    app = await startTestApp(testDatabases[0]!);
    projectKey = (await createProject(app)).key;
    ownerEmail = (await app.knex('accounts').where('ulid', app.ownerUlid).first('email')).email;
    expect((await app.mgmt('PUT', `/accounts/${app.ownerUlid}/password`, { password })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('X-Content-Type-Options: nosniff on every answer: API, errors, pages, files, health, metrics', async () => {
    const answers: Array<[string, Response]> = [];
    const get = async (path: string, init: RequestInit = {}) =>
      answers.push([`${init.method ?? 'GET'} ${path}`, await fetch(app.baseUrl + path, init)]);
    await get('/management/v1/projects', { headers: { authorization: `Bearer ${app.ownerToken}` } });
    await get('/management/v1/projects'); // 401
    await get('/management/v1/projects', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.ownerToken}`, 'content-type': 'application/json' },
      body: '{',
    }); // 400
    await get('/v1/flags'); // 401
    await get('/ofrep/v1/evaluate/flags', { method: 'POST' });
    await get('/definitely-not-a-path', { headers: { accept: 'application/json' } });
    await get('/management/v1/projects', { method: 'PATCH' }); // 405
    await get('/health');
    await get('/ready');
    await get('/metrics');
    await get('/docs');
    await get('/docs/init.js');
    await get('/v1/api-docs');
    await get('/');
    await get('/', { method: 'HEAD' });
    await get('/v1/flags', { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    for (const [name, res] of answers) expect(res.headers.get('x-content-type-options'), `${name} ${res.status}`).toBe('nosniff');
  });

  it('Cache-Control: no-store on every answer that carries a secret or a session', async () => {
    const created = [
      await app.mgmt('POST', '/tokens', { name: uniqueKey('t'), scopes: ['projects:read'] }),
      await app.mgmt('POST', `/accounts/${app.ownerUlid}/tokens`, { name: 'laptop' }),
      await app.mgmt('POST', `/projects/${projectKey}/environments/development/keys`, { kind: 'server' }),
      await app.mgmt('POST', `/projects/${projectKey}/webhooks`, { url: 'https://203.0.113.7/hook', events: ['*'] }),
    ];
    for (const res of created) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const signIn = await app.request('POST', '/management/v1/session', { body: { email: ownerEmail, password } });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('cache-control')).toBe('no-store');
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const session = await app.request('GET', '/management/v1/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.headers.get('cache-control')).toBe('no-store');
    const refused = await app.request('POST', '/management/v1/session', { body: { email: ownerEmail, password: 'wrong password' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    // An answer without a secret stays cacheable as before.
    expect((await app.mgmt('GET', '/projects')).headers.get('cache-control')).not.toBe('no-store');
  });
});

describe('paths nothing answers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(testDatabases[0]!);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answer a JSON client 404 in the standard envelope, and a browser navigation the console', async () => {
    for (const accept of ['application/json', '*/*', '']) {
      const res = await app.request('GET', '/definitely-not-a-path', { headers: accept ? { accept } : {}, skipContract: true });
      expect(res.status, accept).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ status: 'error', message: 'Not found.', code: 'not_found' });
    }
    const page = await fetch(`${app.baseUrl}/projects/shop/flags`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    const root = await fetch(`${app.baseUrl}/`);
    expect(page.status).toBe(root.status);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('HEAD / answers as GET / does, without a body', async () => {
    const get = await fetch(`${app.baseUrl}/`);
    const head = await fetch(`${app.baseUrl}/`, { method: 'HEAD' });
    expect(head.status).toBe(get.status);
    expect([200, 503]).toContain(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
  });
});
