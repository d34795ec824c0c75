import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  collectAll,
  createEnvironmentKey,
  createManagementToken,
  createProject,
  expectNoWrites,
  lastAuditEntry,
  uniqueKey,
} from './admin-support.js';

describeEachDatabase('admin: environments', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates an environment with every field, or with the defaults', async () => {
    const { key } = await createProject(app, uniqueKey('p'), []);
    const full = await app.mgmt('POST', `/projects/${key}/environments`, {
      key: 'staging',
      name: 'Staging',
      description: 'Pre-production checks.',
      color: '#f59e0b',
      comments_required: true,
      confirmation_required: true,
    });
    expect(full.status).toBe(200);
    expect(full.body.data).toMatchObject({
      key: 'staging',
      name: 'Staging',
      description: 'Pre-production checks.',
      color: '#f59e0b',
      comments_required: true,
      confirmation_required: true,
    });
    expect(full.body.data.ulid).toMatch(/^env_/);
    const entry = await lastAuditEntry(app);
    expect(entry).toMatchObject({
      action: 'environment.created',
      subject_type: 'environment',
      subject_ulid: full.body.data.ulid,
      environment_ulid: full.body.data.ulid,
      result: 'success',
    });

    const minimal = await app.mgmt('POST', `/projects/${key}/environments`, { key: 'dev', name: 'Dev' });
    expect(minimal.body.data).toMatchObject({
      description: null,
      color: '#808080',
      comments_required: false,
      confirmation_required: false,
    });
    const nullDescription = await app.mgmt('POST', `/projects/${key}/environments`, { key: 'qa', name: 'QA', description: null });
    expect(nullDescription.body.data.description).toBeNull();
    const row = await app.knex('environments').where('ulid', minimal.body.data.ulid).first('revision');
    expect(Number(row.revision)).toBe(1);

    const got = await app.mgmt('GET', `/projects/${key}/environments/staging`);
    expect(got.body.data).toEqual(full.body.data);
  });

  it('refuses a key taken in the project, but allows it in another project', async () => {
    const a = await createProject(app);
    const b = await createProject(app, uniqueKey('p'), []);
    const taken = await expectNoWrites(app, () =>
      app.mgmt('POST', `/projects/${a.key}/environments`, { key: 'production', name: 'Again' }),
    );
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ key: ['The key has already been taken.'] });
    expect((await app.mgmt('POST', `/projects/${b.key}/environments`, { key: 'production', name: 'Prod' })).status).toBe(200);
  });

  it('refuses invalid bodies field by field without writing', async () => {
    const { key } = await createProject(app);
    const big = 'ü'.repeat(10_000);
    const cases: Array<[unknown, string[]]> = [
      [{ key: 'x' }, ['name']],
      [{ name: 'x' }, ['key']],
      [{ key: 'x', name: 'x', color: 'red' }, ['color']],
      [{ key: 'x', name: 'x', color: '#12345' }, ['color']],
      [{ key: 'x', name: 'x', comments_required: 'yes' }, ['comments_required']],
      [{ key: 'x', name: 'x', confirmation_required: 1 }, ['confirmation_required']],
      [{ key: 'x', name: 'x', revision: 5 }, ['revision']],
      [{ key: 'x', name: 'x', description: 'd'.repeat(1001) }, ['description']],
      [{ key: big, name: big, description: big, color: big }, ['color', 'description', 'key', 'name']],
      [{ key: 'x', name: '\u0007bell' }, ['name']],
      [{ key: 'x', name: 'x', description: 'lone \udc00' }, ['description']],
    ];
    for (const [body, fields] of cases) {
      const res = await expectNoWrites(app, () => app.mgmt('POST', `/projects/${key}/environments`, body));
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(res.body.errors).sort(), JSON.stringify(body).slice(0, 80)).toEqual(fields);
    }
    expect((await expectNoWrites(app, () => app.mgmt('POST', '/projects/nope/environments', { key: 'x', name: 'x' }))).status).toBe(404);
  });

  it('updates only the given fields and clears the description with null', async () => {
    const { key } = await createProject(app);
    const before = (await app.mgmt('GET', `/projects/${key}/environments/production`)).body.data;
    app.clock.advance(5);
    const protect = await app.mgmt('PUT', `/projects/${key}/environments/production`, {
      name: 'Production',
      description: 'Live traffic.',
      color: '#dc2626',
      comments_required: true,
      confirmation_required: false,
    });
    expect(protect.status).toBe(200);
    expect(protect.body.data).toMatchObject({
      ulid: before.ulid,
      key: 'production',
      description: 'Live traffic.',
      color: '#dc2626',
      comments_required: true,
      confirmation_required: false,
      created_at: before.created_at,
    });
    expect(protect.body.data.updated_at > before.updated_at).toBe(true);

    const rename = await app.mgmt('PUT', `/projects/${key}/environments/production`, { name: 'Prod' });
    expect(rename.body.data).toMatchObject({ name: 'Prod', description: 'Live traffic.', color: '#dc2626', comments_required: true });
    const cleared = await app.mgmt('PUT', `/projects/${key}/environments/production`, {
      name: 'Prod',
      description: null,
      comments_required: false,
    });
    expect(cleared.body.data).toMatchObject({ description: null, comments_required: false, confirmation_required: false });
    expect((await app.mgmt('GET', `/projects/${key}/environments/production`)).body.data).toEqual(cleared.body.data);

    for (const body of [{ name: 'x', key: 'other' }, { description: 'no name' }, { name: 'x', color: 'blue' }, { name: '' }]) {
      const res = await expectNoWrites(app, () => app.mgmt('PUT', `/projects/${key}/environments/production`, body));
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await expectNoWrites(app, () => app.mgmt('PUT', `/projects/${key}/environments/nope`, { name: 'x' }))).status).toBe(404);
  });

  it('deletes an environment with its keys, leaving the rest of the project', async () => {
    const { key, ulid } = await createProject(app);
    const serverKey = await createEnvironmentKey(app, key, 'development', 'server');
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(serverKey.key)).toBeDefined();
    const res = await app.mgmt('DELETE', `/projects/${key}/environments/development`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    expect((await app.mgmt('GET', `/projects/${key}/environments/development`)).status).toBe(404);
    expect((await app.mgmt('GET', `/projects/${key}/environments/production`)).status).toBe(200);
    expect((await app.mgmt('GET', `/projects/${key}`)).status).toBe(200);
    expect(await app.knex('environment_keys').where('ulid', serverKey.ulid).first()).toBeUndefined();
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(serverKey.key)).toBeUndefined();
    expect((await app.mgmt('DELETE', `/projects/${key}/environments/development`)).status).toBe(404);
    const entry = await app.knex('audit_entries').where({ action: 'environment.deleted', project_ulid: ulid }).first();
    expect(entry).toMatchObject({ result: 'success', subject_type: 'environment' });
  });

  it('paginates environments and refuses cursors of other lists', async () => {
    const keys = ['e1', 'e2', 'e3', 'e4', 'e5'];
    const { key } = await createProject(
      app,
      uniqueKey('p'),
      keys.map((k) => ({ key: k, name: k })),
    );
    const other = await createProject(
      app,
      uniqueKey('p'),
      keys.map((k) => ({ key: k, name: k })),
    );
    expect((await collectAll(app, `/projects/${key}/environments`, app.ownerToken, 2)).map((e) => e.key)).toEqual(keys);
    const page = await app.mgmt('GET', `/projects/${key}/environments?per_page=2`);
    const cursor = encodeURIComponent(page.body.meta.next_cursor);
    expect(
      (await app.mgmt('GET', `/projects/${key}/environments?per_page=2&cursor=${cursor}`)).body.data.map((e: { key: string }) => e.key),
    ).toEqual(['e3', 'e4']);
    const foreign = await app.mgmt('GET', `/projects/${other.key}/environments?cursor=${cursor}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body.status).toBe('error');
    const projectsCursor = (await app.mgmt('GET', '/projects?per_page=1')).body.meta.next_cursor;
    expect((await app.mgmt('GET', `/projects/${key}/environments?cursor=${encodeURIComponent(projectsCursor)}`)).status).toBe(422);
    for (const q of ['per_page=0', 'per_page=101']) expect((await app.mgmt('GET', `/projects/${key}/environments?${q}`)).status).toBe(422);
  });

  it('shows a token only its granted environments and lets it administer only the whole project', async () => {
    const p = await createProject(app, uniqueKey('p'), [
      { key: 'dev', name: 'Dev' },
      { key: 'prod', name: 'Prod' },
    ]);
    const devOnly = await createManagementToken(app, ['projects:read', 'config:write'], {
      grants: { environments: [{ project: p.key, environment: 'dev' }] },
    });
    const list = await app.request('GET', `/management/v1/projects/${p.key}/environments`, { token: devOnly.token });
    expect(list.body.data.map((e: { key: string }) => e.key)).toEqual(['dev']);
    expect((await app.request('GET', `/management/v1/projects/${p.key}/environments/dev`, { token: devOnly.token })).status).toBe(200);
    const hidden = await app.request('GET', `/management/v1/projects/${p.key}/environments/prod`, { token: devOnly.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ status: 'error', message: 'Environment "prod" not found.', code: expect.any(String) });
    for (const [method, body] of [
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expect(
        (
          await expectNoWrites(app, () =>
            app.request(method, `/management/v1/projects/${p.key}/environments/prod`, { token: devOnly.token, body }),
          )
        ).status,
      ).toBe(404);
    }
    // Creating environments needs the whole project.
    const create = await expectNoWrites(app, () =>
      app.request('POST', `/management/v1/projects/${p.key}/environments`, { token: devOnly.token, body: { key: 'new', name: 'New' } }),
    );
    expect(create.status).toBe(403);
    expect(create.body.required_scope).toBeUndefined();
    // Its own environment it may change.
    const update = await app.request('PUT', `/management/v1/projects/${p.key}/environments/dev`, {
      token: devOnly.token,
      body: { name: 'Development' },
    });
    expect(update.status).toBe(200);
  });

  it('revokes a token whose only grants were in a deleted environment, instead of widening it', async () => {
    const p = await createProject(app);
    const confined = await createManagementToken(app, ['projects:read'], {
      grants: { environments: [{ project: p.key, environment: 'development' }] },
    });
    const wider = await createManagementToken(app, ['projects:read'], {
      grants: {
        environments: [
          { project: p.key, environment: 'development' },
          { project: p.key, environment: 'production' },
        ],
      },
    });
    expect((await app.mgmt('DELETE', `/projects/${p.key}/environments/development`)).status).toBe(200);
    const denied = await app.request('GET', '/management/v1/projects', { token: confined.token });
    expect(denied.status).toBe(401);
    const still = await app.request('GET', `/management/v1/projects/${p.key}/environments`, { token: wider.token });
    expect(still.status).toBe(200);
    expect(still.body.data.map((e: { key: string }) => e.key)).toEqual(['production']);
    const listed = await app.mgmt('GET', '/tokens?per_page=100');
    const row = listed.body.data.find((t: { ulid: string }) => t.ulid === confined.ulid);
    expect(row.revoked_at).not.toBeNull();
    expect(row.grants).toEqual({ projects: [], environments: [] });
  });
});
