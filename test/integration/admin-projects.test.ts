import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
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

describeEachDatabase('admin: projects', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a project with development and production environments by default', async () => {
    const key = uniqueKey('shop');
    const res = await app.mgmt('POST', '/projects', { key, name: 'Web shop', description: 'Flags of the shop.' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data).toMatchObject({ key, name: 'Web shop', description: 'Flags of the shop.' });
    expect(res.body.data.ulid).toMatch(/^prj_[0-9A-Z]{26}$/);
    expect(res.body.data.created_at).toBe(res.body.data.updated_at);
    expect(new Date(res.body.data.created_at).toISOString()).toBe(res.body.data.created_at);

    const entry = await lastAuditEntry(app);
    expect(entry).toMatchObject({
      action: 'project.created',
      subject_type: 'project',
      subject_ulid: res.body.data.ulid,
      subject_label: key,
      result: 'success',
      status_code: 200,
    });

    const envs = await app.mgmt('GET', `/projects/${key}/environments`);
    expect(envs.status).toBe(200);
    expect(envs.body.data.map((e: { key: string }) => e.key)).toEqual(['development', 'production']);
    expect(envs.body.data[0]).toMatchObject({
      name: 'Development',
      description: null,
      color: '#808080',
      comments_required: false,
      confirmation_required: false,
    });
    const rows = await app.knex('environments').where('project_ulid', res.body.data.ulid).select('revision');
    expect(rows.map((r) => Number(r.revision))).toEqual([1, 1]);
  });

  it('creates exactly the listed environments, or none for an empty list', async () => {
    const key = uniqueKey('billing');
    const res = await app.mgmt('POST', '/projects', {
      key,
      name: 'Billing',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'live', name: 'Live' },
        { key: 'qa', name: 'QA' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.description).toBe('');
    const envs = await app.mgmt('GET', `/projects/${key}/environments`);
    expect(envs.body.data.map((e: { key: string }) => e.key)).toEqual(['staging', 'live', 'qa']);

    const bare = uniqueKey('bare');
    expect((await app.mgmt('POST', '/projects', { key: bare, name: 'Bare', environments: [] })).status).toBe(200);
    const none = await app.mgmt('GET', `/projects/${bare}/environments`);
    expect(none.body).toEqual({ status: 'success', data: [], meta: { per_page: 25, next_cursor: null, prev_cursor: null } });
  });

  it('creates environments with their colour, description and comment and confirmation settings', async () => {
    const key = uniqueKey('settings');
    const res = await app.mgmt('POST', '/projects', {
      key,
      name: 'Settings',
      environments: [
        { key: 'staging', name: 'Staging', color: '#2f80ed' },
        {
          key: 'production',
          name: 'Production',
          description: 'What customers see',
          color: '#d93025',
          comments_required: true,
          confirmation_required: true,
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const envs = (await app.mgmt('GET', `/projects/${key}/environments`)).body.data;
    expect(envs).toMatchObject([
      { key: 'staging', description: null, color: '#2f80ed', comments_required: false, confirmation_required: false },
      { key: 'production', description: 'What customers see', color: '#d93025', comments_required: true, confirmation_required: true },
    ]);
    const badColour = await app.mgmt('POST', '/projects', {
      key: uniqueKey('bad'),
      name: 'Bad',
      environments: [{ key: 'x', name: 'X', color: 'red' }],
    });
    expect(badColour.status).toBe(422);
    expect(Object.keys(badColour.body.errors)).toEqual(['environments.0.color']);
  });

  it('refuses a taken key with a field-keyed 422 and writes nothing', async () => {
    const { key } = await createProject(app);
    const res = await expectNoWrites(app, () => app.mgmt('POST', '/projects', { key, name: 'Again' }));
    expect(res.status).toBe(422);
    expect(res.body.errors.key).toEqual(['The key has already been taken.']);
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses duplicate environment keys and invalid bodies without writing', async () => {
    const key = uniqueKey('dup');
    const dup = await expectNoWrites(app, () =>
      app.mgmt('POST', '/projects', {
        key,
        name: 'Dup',
        environments: [
          { key: 'a', name: 'A' },
          { key: 'a', name: 'A again' },
        ],
      }),
    );
    expect(dup.status).toBe(422);
    expect(Object.keys(dup.body.errors)).toEqual(['environments']);
    // Each environment fits the document; together they break a rule.
    expect(dup.body.code).toBe('invalid_combination');

    const cases: Array<[unknown, string]> = [
      [{ name: 'No key' }, 'key'],
      [{ key: 'Upper', name: 'x' }, 'key'],
      [{ key: '-dash', name: 'x' }, 'key'],
      [{ key: 'k'.repeat(201), name: 'x' }, 'key'],
      [{ key: uniqueKey('x') }, 'name'],
      [{ key: uniqueKey('x'), name: '' }, 'name'],
      [{ key: uniqueKey('x'), name: '   ' }, 'name'],
      [{ key: uniqueKey('x'), name: 'n'.repeat(201) }, 'name'],
      [{ key: uniqueKey('x'), name: 'x', description: 'd'.repeat(1001) }, 'description'],
      [{ key: uniqueKey('x'), name: 'x', description: null }, 'description'],
      [{ key: uniqueKey('x'), name: 'x', colour: 'red' }, 'colour'],
      [{ key: uniqueKey('x'), name: 'x', environments: [{ key: 'a' }] }, 'environments.0.name'],
      [{ key: uniqueKey('x'), name: 'x', environments: [{ key: 'a', name: 'A', color: 'black' }] }, 'environments.0.color'],
      [
        { key: uniqueKey('x'), name: 'x', environments: [{ key: 'a', name: 'A', comments_required: 'yes' }] },
        'environments.0.comments_required',
      ],
      [
        { key: uniqueKey('x'), name: 'x', environments: Array.from({ length: 21 }, (_, i) => ({ key: `e${i}`, name: 'E' })) },
        'environments',
      ],
      [{ key: uniqueKey('x'), name: 'bad \ud800 surrogate' }, 'name'],
      [{ key: uniqueKey('x'), name: 'nul \u0000 char' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await expectNoWrites(app, () => app.mgmt('POST', '/projects', body));
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(422);
      expect(Object.keys(res.body.errors), JSON.stringify(body).slice(0, 100)).toContain(field);
    }
    const array = await expectNoWrites(app, () => app.mgmt('POST', '/projects', [{ key: 'a', name: 'A' }]));
    expect(array.status).toBe(422);
    const missing = await expectNoWrites(app, () => app.request('POST', '/management/v1/projects', { token: app.ownerToken }));
    expect(missing.status).toBe(422);
  });

  it('accepts unicode and texts at their limits', async () => {
    const key = `k${'x'.repeat(199)}`;
    const name = '🚩'.repeat(200);
    const description = 'Ünïcödé ✓ 中文 '.repeat(100).slice(0, 1000);
    const res = await app.mgmt('POST', '/projects', { key, name, description, environments: [{ key: 'e', name: 'Ω'.repeat(200) }] });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const got = await app.mgmt('GET', `/projects/${key}`);
    expect(got.body.data.name).toBe(name);
    expect(got.body.data.description).toBe(description);
    const env = await app.mgmt('GET', `/projects/${key}/environments/e`);
    expect(env.body.data.name).toBe('Ω'.repeat(200));

    // 10 kB in every field: refused where it is over the limit, nothing written.
    const big = 'é'.repeat(10_000);
    const refused = await expectNoWrites(app, () =>
      app.mgmt('POST', '/projects', { key: big, name: big, description: big, environments: [{ key: big, name: big }] }),
    );
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors).sort()).toEqual(
      ['description', 'environments.0.key', 'environments.0.name', 'key', 'name'].sort(),
    );
  });

  it('gets, updates and keeps the key', async () => {
    const { key, ulid } = await createProject(app);
    const got = await app.mgmt('GET', `/projects/${key}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({ ulid, key });

    app.clock.advance(5);
    const updated = await app.mgmt('PUT', `/projects/${key}`, { name: 'Renamed', description: 'New text' });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ ulid, key, name: 'Renamed', description: 'New text' });
    expect(updated.body.data.updated_at > got.body.data.updated_at).toBe(true);
    expect(updated.body.data.created_at).toBe(got.body.data.created_at);

    const kept = await app.mgmt('PUT', `/projects/${key}`, { name: 'Renamed again' });
    expect(kept.body.data.description).toBe('New text');
    const cleared = await app.mgmt('PUT', `/projects/${key}`, { name: 'Renamed again', description: '' });
    expect(cleared.body.data.description).toBe('');
    expect((await app.mgmt('GET', `/projects/${key}`)).body.data).toEqual(cleared.body.data);

    const withKey = await expectNoWrites(app, () => app.mgmt('PUT', `/projects/${key}`, { name: 'x', key: 'other' }));
    expect(withKey.status).toBe(422);
    expect(withKey.body.errors.key).toBeDefined();
    const noName = await expectNoWrites(app, () => app.mgmt('PUT', `/projects/${key}`, { description: 'x' }));
    expect(noName.status).toBe(422);
    expect(noName.body.errors.name).toBeDefined();
    const blank = await expectNoWrites(app, () => app.mgmt('PUT', `/projects/${key}`, { name: ' \t ' }));
    expect(blank.status).toBe(422);
    // The document states the rule (a pattern), so it is a validation failure like any other.
    expect(blank.body).toMatchObject({
      code: 'validation_failed',
      errors: { name: ['The name field must not be blank or contain control characters.'] },
    });
    const entry = await lastAuditEntry(app);
    expect(entry).toMatchObject({ action: 'project.updated', result: 'invalid', status_code: 422 });
  });

  it('answers 404 for unknown or malformed project keys', async () => {
    for (const path of ['/projects/no-such-project', '/projects/UPPER', `/projects/${'a'.repeat(201)}`]) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await expectNoWrites(app, () => app.mgmt(method, path, method === 'PUT' ? { name: 'x' } : undefined));
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.status).toBe('error');
      }
    }
  });

  it('deletes a project with everything in it, in one go', async () => {
    const { key, ulid } = await createProject(app);
    const serverKey = await createEnvironmentKey(app, key, 'production', 'server');
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(serverKey.key)?.projectUlid).toBe(ulid);
    // Flags, values, targets, rules, criteria, segments and insights of the project, written directly.
    const envs: Array<{ ulid: string }> = await app.knex('environments').where('project_ulid', ulid).select('ulid');
    const now = app.clock.now().toISOString();
    const flag = newId('flag');
    const value = newId('flagValue');
    const target = newId('target');
    const rule = newId('rule');
    const criterion = newId('criterion');
    const segment = newId('segment');
    await app.knex('flags').insert({
      ulid: flag,
      project_ulid: ulid,
      key: 'f',
      name: 'F',
      type: 'boolean',
      description: null,
      permanent: 0,
      include_in_mobile: 1,
      include_in_client: 1,
      created_at: now,
      updated_at: now,
    });
    await app
      .knex('flag_values')
      .insert({ ulid: value, flag_ulid: flag, display: 'true', display_digest: 'd', is_default: 1, created_at: now, updated_at: now });
    await app.knex('targets').insert({
      ulid: target,
      flag_ulid: flag,
      environment_ulid: envs[0]!.ulid,
      value_ulid: value,
      status: 'published',
      created_at: now,
      updated_at: now,
    });
    await app
      .knex('rules')
      .insert({ ulid: rule, target_ulid: target, value_ulid: value, description: 'r', position: 0, created_at: now, updated_at: now });
    await app.knex('segments').insert({
      ulid: segment,
      project_ulid: ulid,
      key: 's',
      name: 'S',
      description: null,
      included: '[]',
      excluded: '[]',
      rules: '[]',
      created_at: now,
      updated_at: now,
    });
    await app
      .knex('criteria')
      .insert({ ulid: criterion, rule_ulid: rule, selector: 'segment', sub_selector: null, comparer: 'in', position: 0, values: '["s"]' });
    await app.knex('criterion_segments').insert({ criterion_ulid: criterion, segment_ulid: segment });
    await app.knex('flag_telemetry').insert({ flag_ulid: flag, environment_ulid: envs[0]!.ulid, retrieved_count: 1 });

    const other = await createProject(app);
    const otherFlags = await app.knex('environments').where('project_ulid', other.ulid).count({ n: '*' }).first();

    const res = await app.mgmt('DELETE', `/projects/${key}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    for (const [table, column, id] of [
      ['projects', 'ulid', ulid],
      ['environments', 'project_ulid', ulid],
      ['flags', 'project_ulid', ulid],
      ['flag_values', 'flag_ulid', flag],
      ['targets', 'flag_ulid', flag],
      ['rules', 'target_ulid', target],
      ['criteria', 'rule_ulid', rule],
      ['segments', 'project_ulid', ulid],
      ['criterion_segments', 'segment_ulid', segment],
      ['flag_telemetry', 'flag_ulid', flag],
      ['environment_keys', 'ulid', serverKey.ulid],
    ] as const) {
      const row = await app.knex(table).where(column, id).count({ n: '*' }).first();
      expect(Number(row?.n), table).toBe(0);
    }
    expect(await app.knex('environments').where('project_ulid', other.ulid).count({ n: '*' }).first()).toEqual(otherFlags);
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(serverKey.key)).toBeUndefined();
    expect((await app.mgmt('GET', `/projects/${key}`)).status).toBe(404);
    expect((await app.mgmt('DELETE', `/projects/${key}`)).status).toBe(404);
    const entry = await app.knex('audit_entries').where({ action: 'project.deleted', subject_ulid: ulid }).first();
    expect(entry).toMatchObject({ result: 'success', subject_label: key });
  });

  it('paginates with opaque cursors both ways and refuses bad pagination input', async () => {
    for (let i = 0; i < 5; i++) await createProject(app);
    const all = await collectAll(app, '/projects', app.ownerToken, 2);
    const allOnce = await app.mgmt('GET', '/projects?per_page=100');
    expect(all.map((p) => p.ulid)).toEqual(allOnce.body.data.map((p: { ulid: string }) => p.ulid));
    expect([...all.map((p) => p.ulid)].sort()).toEqual(all.map((p) => p.ulid));

    const first = await app.mgmt('GET', '/projects?per_page=2');
    expect(first.body.meta.per_page).toBe(2);
    expect(first.body.meta.prev_cursor).toBeNull();
    const second = await app.mgmt('GET', `/projects?per_page=2&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
    expect(second.body.data[0].ulid).toBe(all[2].ulid);
    expect(second.body.meta.prev_cursor).not.toBeNull();
    const back = await app.mgmt('GET', `/projects?per_page=2&cursor=${encodeURIComponent(second.body.meta.prev_cursor)}`);
    expect(back.body.data).toEqual(first.body.data);
    const defaulted = await app.mgmt('GET', '/projects');
    expect(defaulted.body.meta.per_page).toBe(25);
    const empty = await app.mgmt('GET', '/projects?cursor=');
    expect(empty.status).toBe(200);

    const envList = await app.mgmt('GET', `/projects/${all[0].key}/environments?per_page=1`);
    const foreign = envList.body.meta.next_cursor as string;
    expect(foreign).toBeTruthy();
    for (const query of [
      'per_page=0',
      'per_page=101',
      'per_page=-1',
      'per_page=abc',
      'per_page=2.5',
      'cursor=not-a-cursor',
      `cursor=${encodeURIComponent(Buffer.from('{"l":"projects"}').toString('base64url'))}`,
      `cursor=${encodeURIComponent(foreign)}`,
      `cursor=${'x'.repeat(1001)}`,
    ]) {
      const res = await app.mgmt('GET', `/projects?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.status, query).toBe('error');
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('lists, reads and administers only what a token is granted', async () => {
    const a = await createProject(app);
    const b = await createProject(app);
    const onlyA = await createManagementToken(app, ['projects:read', 'config:write'], { grants: { projects: [a.key] } });
    const envOfB = await createManagementToken(app, ['projects:read', 'config:write'], {
      grants: { environments: [{ project: b.key, environment: 'production' }] },
    });
    const keysA = (await collectAll(app, '/projects', onlyA.token, 50)).map((p) => p.key);
    expect(keysA).toEqual([a.key]);
    expect((await collectAll(app, '/projects', envOfB.token, 50)).map((p) => p.key)).toEqual([b.key]);

    expect((await app.request('GET', `/management/v1/projects/${a.key}`, { token: onlyA.token })).status).toBe(200);
    const hidden = await app.request('GET', `/management/v1/projects/${b.key}`, { token: onlyA.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ status: 'error', message: `Project "${b.key}" not found.`, code: expect.any(String) });
    for (const [method, body] of [
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await expectNoWrites(app, () => app.request(method, `/management/v1/projects/${b.key}`, { token: onlyA.token, body }));
      expect(res.status).toBe(404);
    }
    // Reaching one environment of b is not enough to change or delete b.
    for (const [method, body] of [
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await expectNoWrites(app, () => app.request(method, `/management/v1/projects/${b.key}`, { token: envOfB.token, body }));
      expect(res.status).toBe(403);
      expect(res.body.status).toBe('error');
      expect(res.body.required_scope).toBeUndefined();
    }
    const entry = await lastAuditEntry(app);
    expect(entry).toMatchObject({ result: 'denied_grant', status_code: 403, token_ulid: envOfB.ulid });
    // A token with grants cannot create projects.
    const create = await expectNoWrites(app, () =>
      app.request('POST', '/management/v1/projects', { token: onlyA.token, body: { key: uniqueKey('x'), name: 'x' } }),
    );
    expect(create.status).toBe(403);
    expect((await app.request('PUT', `/management/v1/projects/${a.key}`, { token: onlyA.token, body: { name: 'By token' } })).status).toBe(
      200,
    );
  });
});
