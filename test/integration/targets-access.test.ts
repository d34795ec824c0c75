import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createFixture, snapshot, type Fixture } from './targets-fixture.js';

interface Op {
  operationId: string;
  method: string;
  /** Path below the flag/environment base; `{t}` is a target ulid. */
  suffix: string;
  body?: unknown;
  scope: 'targets:read' | 'targets:write';
}

const ops: Op[] = [
  { operationId: 'listTargets', method: 'GET', suffix: '/targets', scope: 'targets:read' },
  { operationId: 'getTarget', method: 'GET', suffix: '/targets/{t}', scope: 'targets:read' },
  { operationId: 'createTarget', method: 'POST', suffix: '/targets', scope: 'targets:write' },
  { operationId: 'updateTarget', method: 'PUT', suffix: '/targets/{t}', body: { comment: 'x' }, scope: 'targets:write' },
  { operationId: 'deleteTarget', method: 'DELETE', suffix: '/targets/{t}', scope: 'targets:write' },
  { operationId: 'publishTarget', method: 'PUT', suffix: '/targets/{t}/publish', body: {}, scope: 'targets:write' },
  {
    operationId: 'createRollout',
    method: 'POST',
    suffix: '/targets/{t}/rollout',
    body: { rollout_mode: 'automatic' },
    scope: 'targets:write',
  },
  { operationId: 'updateRollout', method: 'PUT', suffix: '/targets/{t}/rollout', body: { action: 'pause' }, scope: 'targets:write' },
  { operationId: 'deleteRollout', method: 'DELETE', suffix: '/targets/{t}/rollout', scope: 'targets:write' },
  { operationId: 'completeRollout', method: 'POST', suffix: '/targets/{t}/rollout/complete', scope: 'targets:write' },
];

describeEachDatabase('targets: scopes and grants', (db) => {
  let app: TestApp;
  let fx: Fixture;
  let draft: string;

  async function token(scopes: string[], grants?: unknown): Promise<string> {
    const res = await app.mgmt('POST', '/tokens', { name: `t-${scopes.join('-')}`, scopes, ...(grants ? { grants } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.token;
  }

  const path = (op: Op, base = fx.base, target = draft) => base + op.suffix.replace('{t}', target);

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = await createFixture(app);
    const res = await app.mgmt('POST', `${fx.base}/targets`);
    draft = res.body.data.ulid;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('no token: 401 on every operation, nothing changes', async () => {
    const before = await snapshot(app, fx);
    for (const op of ops) {
      const res = await app.request(op.method, `/management/v1${path(op)}`, { body: op.body });
      expect(res.status, op.operationId).toBe(401);
      expect(res.body.status).toBe('error');
    }
    expect(await snapshot(app, fx)).toEqual(before);
  });

  describe('scope matrix', () => {
    const matrix: Array<{ scopes: string[]; read: boolean; write: boolean }> = [
      { scopes: ['targets:read'], read: true, write: false },
      { scopes: ['targets:write'], read: true, write: true },
      { scopes: ['flags:read', 'flags:write', 'projects:read', 'audit:read', 'config:write'], read: false, write: false },
    ];

    it.each(matrix)('scopes $scopes', async ({ scopes, read, write }) => {
      const secret = await token(scopes);
      const before = await snapshot(app, fx);
      for (const op of ops) {
        const allowed = op.scope === 'targets:read' ? read : write;
        if (allowed && op.scope === 'targets:write') continue; // exercised below, in order
        const res = await app.request(op.method, `/management/v1${path(op)}`, { token: secret, body: op.body });
        if (allowed) {
          expect(res.status, op.operationId).toBe(200);
        } else {
          expect(res.status, op.operationId).toBe(403);
          expect(res.body).toEqual({ status: 'error', message: expect.any(String), required_scope: op.scope, code: expect.any(String) });
        }
      }
      expect(await snapshot(app, fx)).toEqual(before);
      const denied = await app.knex('audit_entries').where({ action: 'scope.denied', result: 'denied_scope' }).count({ n: '*' }).first();
      if (!read || !write) expect(Number(denied?.n)).toBeGreaterThan(0);
    });

    it('targets:write performs every write operation (and the reads)', async () => {
      const secret = await token(['targets:write']);
      const call = async (method: string, suffix: string, body?: unknown) => {
        const res = await app.request(method, `/management/v1${fx.base}${suffix}`, { token: secret, body });
        expect(res.status, `${method} ${suffix}: ${JSON.stringify(res.body)}`).toBe(200);
        return res.body.data;
      };
      const t = (await call('POST', '/targets')).ulid;
      await call('PUT', `/targets/${t}`, { comment: 'by token' });
      await call('POST', `/targets/${t}/rollout`, { rollout_mode: 'manual', rollout_percentage: 10 });
      await call('PUT', `/targets/${t}/publish`, {});
      await call('PUT', `/targets/${t}/rollout`, { action: 'pause' });
      await call('POST', `/targets/${t}/rollout/complete`);
      await call('DELETE', `/targets/${t}/rollout`);
      const d = (await call('POST', '/targets')).ulid;
      await call('DELETE', `/targets/${d}`);
      expect((await call('GET', `/targets/${t}`)).status).toBe('published');
      expect((await call('GET', '/targets')).length).toBeGreaterThan(0);
      const entry = await app.knex('audit_entries').where({ subject_ulid: t, action: 'target.published' }).first();
      expect(entry).toMatchObject({ actor_type: 'management_token', result: 'success' });
    });
  });

  describe('grant matrix', () => {
    it('a token granted another environment or project gets 404 and changes nothing', async () => {
      const elsewhere = await createFixture(app);
      const grantsList = [{ environments: [{ project: fx.project, environment: fx.otherEnv }] }, { projects: [elsewhere.project] }];
      for (const grants of grantsList) {
        const secret = await token(['targets:write'], grants);
        const before = await snapshot(app, fx);
        for (const op of ops) {
          const res = await app.request(op.method, `/management/v1${path(op)}`, { token: secret, body: op.body });
          expect(res.status, `${op.operationId} ${JSON.stringify(grants)}`).toBe(404);
          expect(res.body.status).toBe('error');
        }
        expect(await snapshot(app, fx)).toEqual(before);
      }
    });

    it('a token granted this environment reaches it (and only it)', async () => {
      const secret = await token(['targets:write'], { environments: [{ project: fx.project, environment: fx.env }] });
      const list = await app.request('GET', `/management/v1${fx.base}/targets`, { token: secret });
      expect(list.status).toBe(200);
      const created = await app.request('POST', `/management/v1${fx.base}/targets`, { token: secret });
      expect(created.status).toBe(200);
      const staging = `/projects/${fx.project}/flags/${fx.flag}/environments/${fx.otherEnv}`;
      expect((await app.request('GET', `/management/v1${staging}/targets`, { token: secret })).status).toBe(404);
      expect((await app.request('POST', `/management/v1${staging}/targets`, { token: secret })).status).toBe(404);
    });
  });
});
