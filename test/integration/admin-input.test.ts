/**
 * Bad input as a new user would try it, on every administration operation with a body or a
 * page: unknown fields, 10 kB strings in every field, unicode, bad pagination, empty headers.
 * Every refusal leaves the data as it was.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createAccountWithToken, createProject, expectNoWrites, uniqueKey } from './admin-support.js';

interface BodyOperation {
  id: string;
  method: string;
  path: () => string;
  body: () => Record<string, unknown>;
  /** Dotted paths of every string field, each with the error key expected when it holds 10 kB. */
  strings: Array<[path: string, errorKey: string]>;
  /** Text fields whose limits allow unicode of some length. */
  unicode: Array<[path: string, value: string]>;
}

function set(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const parts = path.split('.');
  let node: any = copy;
  for (const part of parts.slice(0, -1)) node = node[part];
  node[parts[parts.length - 1] as string] = value;
  return copy;
}

const big = 'ß🚩'.repeat(3_400); // a little over 10 kB of UTF-8

describeEachDatabase('admin: bad input on every administration operation', (db) => {
  let app: TestApp;
  let project: string;
  let member: string;
  const operations: BodyOperation[] = [
    {
      id: 'createProject',
      method: 'POST',
      path: () => '/projects',
      body: () => ({ key: uniqueKey('p'), name: 'P', description: 'd', environments: [{ key: 'e', name: 'E' }] }),
      strings: [
        ['key', 'key'],
        ['name', 'name'],
        ['description', 'description'],
        ['environments.0.key', 'environments.0.key'],
        ['environments.0.name', 'environments.0.name'],
      ],
      unicode: [
        ['name', 'Ünïcödé 🚩 中文 '.repeat(13)],
        ['description', '説明 ✓ '.repeat(150)],
      ],
    },
    {
      id: 'updateProject',
      method: 'PUT',
      path: () => `/projects/${project}`,
      body: () => ({ name: 'P', description: 'd' }),
      strings: [
        ['name', 'name'],
        ['description', 'description'],
      ],
      unicode: [
        ['name', 'Ñame 🚩'],
        ['description', 'Ωmega '.repeat(160)],
      ],
    },
    {
      id: 'createEnvironment',
      method: 'POST',
      path: () => `/projects/${project}/environments`,
      body: () => ({ key: uniqueKey('e'), name: 'E', description: 'd', color: '#000000' }),
      strings: [
        ['key', 'key'],
        ['name', 'name'],
        ['description', 'description'],
        ['color', 'color'],
      ],
      unicode: [
        ['name', 'Ënv 🚀'],
        ['description', 'テスト '.repeat(200)],
      ],
    },
    {
      id: 'updateEnvironment',
      method: 'PUT',
      path: () => `/projects/${project}/environments/production`,
      body: () => ({ name: 'Production', description: 'd', color: '#ffffff' }),
      strings: [
        ['name', 'name'],
        ['description', 'description'],
        ['color', 'color'],
      ],
      unicode: [['name', 'Prōduction 🔥']],
    },
    {
      id: 'createEnvironmentKey',
      method: 'POST',
      path: () => `/projects/${project}/environments/production/keys`,
      body: () => ({ kind: 'server', name: 'K' }),
      strings: [
        ['kind', 'kind'],
        ['name', 'name'],
      ],
      unicode: [['name', 'Schlüssel 🔑'.repeat(10)]],
    },
    {
      id: 'createManagementToken',
      method: 'POST',
      path: () => '/tokens',
      body: () => ({
        name: 'T',
        scopes: ['flags:read'],
        tier: 'standard',
        grants: { projects: [project], environments: [{ project, environment: 'production' }] },
        expires_at: '2099-01-01T00:00:00Z',
      }),
      strings: [
        ['name', 'name'],
        ['scopes.0', 'scopes.0'],
        ['tier', 'tier'],
        ['grants.projects.0', 'grants.projects.0'],
        ['grants.environments.0.project', 'grants.environments.0.project'],
        ['grants.environments.0.environment', 'grants.environments.0.environment'],
        ['expires_at', 'expires_at'],
      ],
      unicode: [['name', 'Jeton ✨ déploiement']],
    },
    {
      id: 'createAccount',
      method: 'POST',
      path: () => '/accounts',
      body: () => ({ name: 'A', email: `${uniqueKey('a')}@example.com`, role: 'member', projects: [project] }),
      strings: [
        ['name', 'name'],
        ['email', 'email'],
        ['role', 'role'],
        ['projects.0', 'projects.0'],
      ],
      unicode: [['name', 'José Ñúñez 李小龍 🙂']],
    },
    {
      id: 'createPersonalAccessToken',
      method: 'POST',
      path: () => `/accounts/${member}/tokens`,
      body: () => ({ name: 'T', expires_at: null }),
      strings: [
        ['name', 'name'],
        ['expires_at', 'expires_at'],
      ],
      unicode: [['name', 'Laptop d’Zoë 💻']],
    },
  ];

  beforeAll(async () => {
    app = await startTestApp(db);
    project = (await createProject(app)).key;
    member = (await createAccountWithToken(app, 'member')).ulid;
  });
  afterAll(async () => {
    await app?.close();
  });

  for (const op of operations) {
    it(`${op.id}: refuses unknown fields and 10 kB strings field by field, accepts unicode within limits`, async () => {
      const send = (body: unknown) => app.mgmt(op.method, op.path(), body);
      // The unmodified body is valid (this also proves the refusals below are about one field).
      const valid = await send(op.body());
      expect(valid.status, JSON.stringify(valid.body)).toBe(200);

      for (const extra of ['unexpected', 'ulid', 'created_at']) {
        const res = await expectNoWrites(app, () => send({ ...op.body(), [extra]: 'x' }));
        expect(res.status, extra).toBe(422);
        expect(res.body.errors[extra], extra).toEqual([`The ${extra} field is not allowed.`]);
      }
      for (const [path, errorKey] of op.strings) {
        const res = await expectNoWrites(app, () => send(set(op.body(), path, big)));
        expect(res.status, path).toBe(422);
        expect(Object.keys(res.body.errors), path).toEqual([errorKey]);
        const wrongType = await expectNoWrites(app, () => send(set(op.body(), path, 12345)));
        expect(wrongType.status, path).toBe(422);
      }
      for (const [path, value] of op.unicode) {
        const res = await send(set(op.body(), path, value));
        expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200);
        expect(JSON.stringify(res.body.data)).toContain(JSON.stringify(value).slice(1, -1));
      }
      for (const raw of ['', 'null', '"text"', '[]', '{"a":', '{}']) {
        const res = await expectNoWrites(app, () =>
          app.request(op.method, `/management/v1${op.path()}`, {
            token: app.ownerToken,
            rawBody: raw,
            headers: { 'content-type': 'application/json' },
          }),
        );
        expect([400, 422], raw).toContain(res.status);
      }
    });
  }

  it('refuses bad pagination on every paginated list', async () => {
    const lists = ['/projects', `/projects/${project}/environments`, '/tokens', '/accounts'];
    const cursors: Record<string, string> = {};
    for (const list of lists) {
      const page = await app.mgmt('GET', `${list}?per_page=1`);
      expect(page.status).toBe(200);
      expect(page.body.meta.per_page).toBe(1);
      cursors[list] = page.body.meta.next_cursor;
      expect(cursors[list], list).toBeTruthy();
    }
    for (const list of lists) {
      const foreign = Object.entries(cursors)
        .filter(([other]) => other !== list)
        .map(([, cursor]) => cursor);
      for (const query of [
        'per_page=0',
        'per_page=101',
        'per_page=',
        'per_page=1e9',
        'cursor=%00',
        'cursor=e30',
        ...foreign.map((c) => `cursor=${encodeURIComponent(c)}`),
      ]) {
        const res = await app.mgmt('GET', `${list}?${query}`);
        expect(res.status, `${list}?${query}`).toBe(422);
        expect(Object.keys(res.body).sort(), `${list}?${query}`).toEqual(['code', 'message', 'status']);
      }
    }
  });

  it('answers empty header values sensibly, writing nothing', async () => {
    // An empty Idempotency-Key is the same as none: the request runs, nothing is replayed.
    const key = uniqueKey('p');
    const emptyKey = await app.request('POST', '/management/v1/projects', {
      token: app.ownerToken,
      body: { key, name: 'P' },
      headers: { 'idempotency-key': '' },
    });
    expect(emptyKey.status).toBe(200);
    expect(emptyKey.headers.get('x-idempotent-replayed')).toBeNull();
    const again = await expectNoWrites(app, () =>
      app.request('POST', '/management/v1/projects', {
        token: app.ownerToken,
        body: { key, name: 'P' },
        headers: { 'idempotency-key': '' },
      }),
    );
    expect(again.status).toBe(422);
    expect(again.body.errors.key).toBeDefined();
    const longKey = await expectNoWrites(app, () =>
      app.request('POST', '/management/v1/projects', {
        token: app.ownerToken,
        body: { key: uniqueKey('p'), name: 'P' },
        headers: { 'idempotency-key': 'k'.repeat(256) },
      }),
    );
    expect(longKey.status).toBe(400);
    const noType = await expectNoWrites(app, () =>
      app.request('POST', '/management/v1/projects', {
        token: app.ownerToken,
        rawBody: JSON.stringify({ key: uniqueKey('p'), name: 'P' }),
        headers: { 'content-type': '' },
      }),
    );
    expect(noType.status).toBe(415);
    const emptyAuth = await expectNoWrites(app, () => app.request('GET', '/management/v1/projects', { headers: { authorization: '' } }));
    expect(emptyAuth.status).toBe(401);
    const emptyApiKey = await app.request('GET', '/v1/flags', { headers: { 'x-vexil-api-key': '' } });
    expect(emptyApiKey.status).toBe(401);
    expect(emptyApiKey.body).toEqual({ status: 'error', message: 'Invalid API key provided.', code: expect.any(String) });
  });
});
