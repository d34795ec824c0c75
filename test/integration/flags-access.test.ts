import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { auditEntryAfter, createManagementToken, createProject, lastAuditUlid, snapshot, type SeededProject } from './flags-fixtures.js';

const allScopes = ['projects:read', 'flags:read', 'flags:write', 'targets:read', 'targets:write', 'audit:read', 'config:write'];

interface World {
  project: SeededProject;
  /** ulid of the default value `a` and of the other value `b` of the string flag `s`. */
  a: string;
  b: string;
}

interface Operation {
  id: string;
  method: string;
  path: (w: World, environment?: string) => string;
  body?: unknown;
  scope: 'flags:read' | 'flags:write';
  /** Whether the path names an environment (grant checks apply to it). */
  environmentPath?: boolean;
}

const base = (w: World) => `/projects/${w.project.key}`;

/** Every flag and flag value operation, in an order that can run successfully one after another. */
const operations: Operation[] = [
  { id: 'listFlags', method: 'GET', path: (w) => `${base(w)}/flags`, scope: 'flags:read' },
  { id: 'getFlag', method: 'GET', path: (w) => `${base(w)}/flags/f`, scope: 'flags:read' },
  { id: 'listFlagValues', method: 'GET', path: (w) => `${base(w)}/flags/s/values`, scope: 'flags:read' },
  {
    id: 'createFlag',
    method: 'POST',
    path: (w) => `${base(w)}/flags`,
    body: { key: 'created', name: 'C', type: 'boolean' },
    scope: 'flags:write',
  },
  { id: 'updateFlag', method: 'PUT', path: (w) => `${base(w)}/flags/f`, body: { name: 'F2', permanent: true }, scope: 'flags:write' },
  { id: 'createFlagValueForFlag', method: 'POST', path: (w) => `${base(w)}/flags/s/values`, body: { display: 'x1' }, scope: 'flags:write' },
  {
    id: 'createFlagValue',
    method: 'POST',
    path: (w, env = 'production') => `${base(w)}/flags/s/environments/${env}/values`,
    body: { display: 'x2' },
    scope: 'flags:write',
    environmentPath: true,
  },
  { id: 'updateFlagValue', method: 'PUT', path: (w) => `${base(w)}/flags/s/values/${w.b}`, body: { display: 'b2' }, scope: 'flags:write' },
  { id: 'setDefaultFlagValueForFlag', method: 'PATCH', path: (w) => `${base(w)}/flags/s/values/${w.b}/default`, scope: 'flags:write' },
  {
    id: 'setDefaultFlagValue',
    method: 'PATCH',
    path: (w, env = 'production') => `${base(w)}/flags/s/environments/${env}/values/${w.a}/default`,
    scope: 'flags:write',
    environmentPath: true,
  },
  { id: 'deleteFlagValue', method: 'DELETE', path: (w) => `${base(w)}/flags/s/values/${w.b}`, scope: 'flags:write' },
  {
    id: 'bulkDeleteFlags',
    method: 'POST',
    path: (w) => `${base(w)}/flags/bulk-delete`,
    body: { flag_keys: ['created'] },
    scope: 'flags:write',
  },
  { id: 'deleteFlag', method: 'DELETE', path: (w) => `${base(w)}/flags/f`, scope: 'flags:write' },
];

describeEachDatabase('flags and flag values: authentication, scopes and grants', (db) => {
  let app: TestApp;
  let world: World;
  let otherProject: SeededProject;

  async function buildWorld(): Promise<World> {
    const project = await createProject(app);
    expect((await app.mgmt('POST', `/projects/${project.key}/flags`, { key: 'f', name: 'F', type: 'boolean' })).status).toBe(200);
    expect((await app.mgmt('POST', `/projects/${project.key}/flags`, { key: 's', name: 'S', type: 'string' })).status).toBe(200);
    const a = (await app.mgmt('POST', `/projects/${project.key}/flags/s/values`, { display: 'a' })).body.data.ulid;
    const b = (await app.mgmt('POST', `/projects/${project.key}/flags/s/values`, { display: 'b' })).body.data.ulid;
    return { project, a, b };
  }

  const send = (op: Operation, w: World, token: string | undefined, environment?: string) =>
    app.request(op.method, `/management/v1${op.path(w, environment)}`, { token, body: op.body });

  /** Runs every operation in order with the token and expects each to succeed. */
  async function expectAllSucceed(token: string, environment?: string) {
    const w = await buildWorld();
    for (const op of operations) {
      const res = await send(op, w, token, environment);
      expect(res.status, `${op.id}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.status).toBe('success');
    }
  }

  beforeAll(async () => {
    app = await startTestApp(db);
    world = await buildWorld();
    otherProject = await createProject(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('documents the scope of every operation as the server enforces it', () => {
    const documented = new Map<string, string | undefined>();
    for (const item of Object.values(app.composition.documents.management.dereferenced.paths)) {
      for (const op of Object.values(item) as Array<Record<string, unknown>>) {
        if (op && typeof op === 'object' && 'operationId' in op) documented.set(String(op.operationId), op['x-required-scope'] as string);
      }
    }
    for (const op of operations) expect(documented.get(op.id), op.id).toBe(op.scope);
    expect(operations).toHaveLength(13);
  });

  it.each(operations.map((op) => [op.id, op] as const))('%s: no or a bad token is a 401 and changes nothing', async (_id, op) => {
    const before = await snapshot(app);
    for (const token of [undefined, `mgt_${'x'.repeat(40)}`]) {
      const res = await send(op, world, token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'error', message: expect.any(String), code: expect.any(String) });
    }
    expect(await snapshot(app)).toEqual(before);
  });

  it.each(operations.map((op) => [op.id, op] as const))(
    '%s: a token without its scope gets 403 naming the scope and changes nothing',
    async (_id, op) => {
      // Every other scope, flags:write included for reads: writing does not imply reading flags.
      const token = await createManagementToken(
        app,
        allScopes.filter((s) => s !== op.scope),
      );
      const before = await snapshot(app);
      const since = await lastAuditUlid(app);
      const res = await send(op, world, token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ status: 'error', message: expect.any(String), required_scope: op.scope, code: expect.any(String) });
      expect(await snapshot(app)).toEqual(before);
      expect(await auditEntryAfter(app, since)).toMatchObject({ action: 'scope.denied', result: 'denied_scope', status_code: 403 });
    },
  );

  it.each(operations.map((op) => [op.id, op] as const))(
    '%s: a token granted only another project gets 404 and changes nothing',
    async (_id, op) => {
      const token = await createManagementToken(app, allScopes, { projects: [otherProject] });
      const before = await snapshot(app);
      const res = await send(op, world, token);
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: expect.any(String), code: expect.any(String) });
      expect(await snapshot(app)).toEqual(before);
    },
  );

  it("an environment path outside the token's environment grants is a 404", async () => {
    const token = await createManagementToken(app, ['flags:read', 'flags:write'], {
      environments: [{ project: world.project, environment: 'development' }],
    });
    const before = await snapshot(app);
    for (const op of operations.filter((o) => o.environmentPath)) {
      const res = await send(op, world, token, 'production');
      expect(res.status, op.id).toBe(404);
    }
    expect(await snapshot(app)).toEqual(before);
  });

  describe('tokens that may act', () => {
    it("the owner's personal access token runs every operation", async () => {
      await expectAllSucceed(app.ownerToken);
    });

    it('a token with exactly flags:read and flags:write runs every operation', async () => {
      await expectAllSucceed(await createManagementToken(app, ['flags:read', 'flags:write']));
    });

    it('a token granted the project runs every operation', async () => {
      // The grant must name the project the world is built in: build it first, then grant.
      const w = await buildWorld();
      const token = await createManagementToken(app, ['flags:read', 'flags:write'], { projects: [w.project] });
      for (const op of operations) {
        const res = await send(op, w, token);
        expect(res.status, `${op.id}: ${JSON.stringify(res.body)}`).toBe(200);
      }
    });

    it('a token granted one environment runs every operation, environment paths through that environment', async () => {
      const w = await buildWorld();
      const token = await createManagementToken(app, ['flags:read', 'flags:write'], {
        environments: [{ project: w.project, environment: 'development' }],
      });
      for (const op of operations) {
        const res = await send(op, w, token, 'development');
        expect(res.status, `${op.id}: ${JSON.stringify(res.body)}`).toBe(200);
      }
    });

    it('a read-only token reads but cannot write', async () => {
      const token = await createManagementToken(app, ['flags:read']);
      for (const op of operations.filter((o) => o.scope === 'flags:read')) {
        expect((await send(op, world, token)).status, op.id).toBe(200);
      }
      const write = operations.find((o) => o.id === 'createFlag') as Operation;
      const res = await send(write, world, token);
      expect(res.status).toBe(403);
      expect(res.body.required_scope).toBe('flags:write');
    });
  });
});
