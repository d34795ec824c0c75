import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectNoWrites } from './admin-support.js';

describeEachDatabase('flags as code: plan', (db) => {
  let app: TestApp;
  const projectKey = `plan-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  let exported: any;

  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  const plan = (file: unknown, query = '') => app.mgmt('POST', `${p}/configuration/plan${query}`, file);
  const copy = () => structuredClone(exported);

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok('POST', '/projects', { key: projectKey, name: 'Plan shop', environments: [{ key: 'staging', name: 'Staging' }] });
    await ok('POST', `${p}/segments`, { key: 'staff', name: 'Staff', included: ['u-1'] });
    await ok('POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    await ok('POST', `${p}/flags`, { key: 'limit', name: 'Limit', type: 'number' });
    await ok('POST', `${p}/flags/limit/values`, { display: '10' });
    const target = await ok('POST', `${p}/flags/checkout/environments/staging/targets`);
    await ok('PUT', `${p}/flags/checkout/environments/staging/targets/${target.ulid}/publish`, {});
    exported = (await app.mgmt('GET', `${p}/configuration`)).body;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("finds nothing to change in the project's own export, and writes nothing", async () => {
    const res = await expectNoWrites(app, () => plan(exported));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ changes: [], summary: { create: 0, update: 0, delete: 0, publish: 0 }, refusals: [] });
  });

  it('lists creations, updates and publishes in a fixed order, comparing values in normalised form', async () => {
    const file = copy();
    file.project.name = 'Plan shop, renamed';
    file.environments[0].comments_required = true;
    file.segments.push({ key: 'beta', name: 'Beta', description: null, included: [], excluded: [], rules: [] });
    const checkout = file.flags.find((f: any) => f.key === 'checkout');
    checkout.name = 'Checkout v2';
    checkout.environments.staging = {
      value: 'false',
      comment: 'ignored when comparing',
      rules: [{ description: 'Staff', value: 'true', criteria: [{ selector: 'segment', comparer: 'in', values: ['staff'] }] }],
      rollout: null,
    };
    const limit = file.flags.find((f: any) => f.key === 'limit');
    limit.values = [
      { value: '10.0', default: true },
      { value: '2e1', default: false },
    ];
    file.flags.push({
      key: 'theme',
      name: 'Theme',
      type: 'json',
      description: null,
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      values: [{ value: '{ "dark": true }', default: true }],
      environments: { staging: { value: '{"dark":true}', rules: [], rollout: null } },
    });
    const res = await plan(file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const summary = res.body.data.changes.map((c: any) => [c.action, c.kind, c.key, c.value ?? c.environment ?? '', c.fields.join(',')]);
    expect(summary).toEqual([
      ['update', 'project', projectKey, '', 'name'],
      ['update', 'environment', 'staging', '', 'comments_required'],
      ['create', 'segment', 'beta', '', ''],
      ['update', 'flag', 'checkout', '', 'name'],
      ['create', 'flag', 'theme', '', ''],
      ['create', 'flag_value', 'limit', '20', ''],
      ['create', 'flag_value', 'theme', '{"dark":true}', ''],
      ['publish', 'serving', 'checkout', 'staging', ''],
      ['publish', 'serving', 'theme', 'staging', ''],
    ]);
    const publish = res.body.data.changes.find((c: any) => c.action === 'publish' && c.key === 'checkout');
    expect(publish.before).toMatchObject({ value: 'false', rules: [] });
    expect(publish.after.rules[0].description).toBe('Staff');
    expect(res.body.data.summary).toEqual({ create: 4, update: 3, delete: 0, publish: 2 });
  });

  it('lists what the file leaves out as deletions only with prune', async () => {
    const file = copy();
    file.flags = file.flags.filter((f: any) => f.key !== 'limit');
    file.segments = [];
    expect((await plan(file)).body.data.changes).toEqual([]);
    const pruned = await plan(file, '?prune=true');
    expect(pruned.body.data.changes.map((c: any) => [c.action, c.kind, c.key])).toEqual([
      ['delete', 'segment', 'staff'],
      ['delete', 'flag', 'limit'],
    ]);
  });

  it('plans a project that does not exist yet as apply makes it: created first, then everything in the file', async () => {
    const newKey = `${projectKey}-new`;
    const file = { ...copy(), project: { ...copy().project, key: newKey } };
    const planned = await expectNoWrites(app, () => app.mgmt('POST', `/projects/${newKey}/configuration/plan`, file));
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    expect(planned.body.data.changes.map((c: any) => [c.action, c.kind, c.key, c.value ?? c.environment ?? null])).toEqual([
      ['create', 'project', newKey, null],
      ['create', 'environment', 'staging', null],
      ['create', 'segment', 'staff', null],
      ['create', 'flag', 'checkout', null],
      ['create', 'flag', 'limit', null],
      ['create', 'flag_value', 'checkout', 'true'],
      ['create', 'flag_value', 'checkout', 'false'],
      ['create', 'flag_value', 'limit', '10'],
      ['publish', 'serving', 'checkout', 'staging'],
    ]);
    expect((await app.mgmt('GET', `/projects/${newKey}`)).status).toBe(404);
    // The file must still name the project of the path.
    const elsewhere = await expectNoWrites(app, () => app.mgmt('POST', `/projects/${newKey}-other/configuration/plan`, file));
    expect(elsewhere.status).toBe(422);
    expect(Object.keys(elsewhere.body.errors)).toEqual(['project.key']);

    const applied = await ok('POST', `/projects/${newKey}/configuration/apply`, file);
    expect(applied.changes).toEqual(planned.body.data.changes);
    expect((await ok('POST', `/projects/${newKey}/configuration/plan`, file)).changes).toEqual([]);
  });

  it('refuses a bad file with errors keyed by the path inside it, and writes nothing', async () => {
    const file = copy();
    file.project.key = 'another-project';
    const checkout = file.flags.find((f: any) => f.key === 'checkout');
    checkout.type = 'string';
    const index = file.flags.indexOf(checkout);
    const limit = file.flags.find((f: any) => f.key === 'limit');
    const limitIndex = file.flags.indexOf(limit);
    limit.values.push({ value: 'ten', default: false });
    limit.environments.production = { value: '10', rules: [], rollout: null };
    const res = await expectNoWrites(app, () => plan(file));
    expect(res.status).toBe(422);
    // Audited as the refused plan it is (reading the project is not what the request did).
    const entry = await app
      .knex('audit_entries')
      .where('http_path', `/management/v1${p}/configuration/plan`)
      .orderBy('ulid', 'desc')
      .first('action', 'result');
    expect(entry).toEqual({ action: 'project.planned', result: 'invalid' });
    expect(Object.keys(res.body.errors).sort()).toEqual(
      ['project.key', `flags.${index}.type`, `flags.${limitIndex}.values.1.value`, `flags.${limitIndex}.environments.production`].sort(),
    );

    const schemaInvalid = await plan({ ...copy(), flags: [{ key: 'Bad Key' }] });
    expect(schemaInvalid.status).toBe(422);
    expect(Object.keys(schemaInvalid.body.errors).some((field) => field.startsWith('flags.0'))).toBe(true);
  });
});
