import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, managementToken, type EnvironmentFixture, type FlagFixture, type ProjectFixture } from './public-fixtures.js';

/** Management preview: GET /projects/{p}/flags/{f}/environments/{e}/evaluate (evaluateFlag). */
describeEachDatabase('management evaluateFlag', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let flag: FlagFixture;
  let other: ProjectFixture;

  const path = (flagKey: string, envKey = env.key, projectKey = project.key) =>
    `/projects/${projectKey}/flags/${flagKey}/environments/${envKey}/evaluate`;
  const evaluate = (flagKey: string, context?: unknown, token?: string) =>
    app.mgmt(
      'GET',
      path(flagKey) + (context === undefined ? '' : `?context=${encodeURIComponent(typeof context === 'string' ? context : JSON.stringify(context))}`),
      undefined,
      token ? { token } : {},
    );

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    project = await fx.project();
    env = await fx.environment(project, 'staging');
    other = await fx.project();
    await fx.environment(other, 'staging');
    flag = await fx.flag(project, { key: 'checkout', type: 'string', name: 'Checkout', values: ['a', 'b', 'c'], defaultValue: 'a' });
    await fx.flag(project, { key: 'valueless', type: 'json', values: [], defaultValue: null });
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves the default value while nothing is published, and unavailable for a flag without values', async () => {
    const res = await evaluate('checkout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: { key: 'checkout', name: 'Checkout', type: 'string', value: 'a', resolved_by: 'default' },
    });
    const none = await evaluate('valueless');
    expect(none.body.data).toEqual({ key: 'valueless', name: 'Flag valueless', type: 'json', value: null, resolved_by: 'unavailable' });
  });

  it('reflects a publish at once (no waiting for the poller): target, rule, rollout', async () => {
    await fx.publish(env, flag, {
      value: 'b',
      rules: [{ value: 'c', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
    });
    const target = await evaluate('checkout');
    expect(target.body.data).toMatchObject({ value: 'b', resolved_by: 'target' });
    const rule = await evaluate('checkout', { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] });
    expect(rule.body.data).toMatchObject({ value: 'c', resolved_by: 'rule' });

    await fx.publish(env, flag, { value: 'a', rollout: { percentage: 100 } });
    const rollout = await evaluate('checkout', { type: 'user', identifier: 'u1' });
    expect(rollout.body.data).toMatchObject({ value: 'a', resolved_by: 'rollout' });
    // Without an identifier nobody is inside a partial rollout: the previous target (and its rule) serve.
    const anonymous = await evaluate('checkout');
    expect(anonymous.body.data).toMatchObject({ value: 'b', resolved_by: 'target' });
  });

  it('refuses a context that is not a JSON Context with 422', async () => {
    for (const context of ['{', '[]', JSON.stringify({ type: 'user' }), JSON.stringify({ type: 'user', identifier: 'u', x: 1 })]) {
      const res = await evaluate('checkout', context);
      expect(res.status, context).toBe(422);
      expect(res.body.status).toBe('error');
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('answers 404 for an unknown project, flag or environment', async () => {
    for (const p of [path('nope'), path('checkout', 'nope'), path('checkout', env.key, 'nope')]) {
      const res = await app.mgmt('GET', p);
      expect(res.status, p).toBe(404);
      expect(res.body.status).toBe('error');
    }
  });

  it('is not counted in telemetry, and is audited as flag.evaluated', async () => {
    const row = () => app.knex('flag_telemetry').where({ flag_ulid: flag.ulid, environment_ulid: env.ulid }).first();
    await fx.flushTelemetry();
    const before = await row();
    await evaluate('checkout');
    await fx.flushTelemetry();
    // (fx.settle fetched payloads, so retrieval counts exist; evaluation counts must not move.)
    expect(await row()).toEqual(before);
    expect(Number(before?.evaluated_count ?? 0)).toBe(0);
    const audit = await app.knex('audit_entries').where({ action: 'flag.evaluated', subject_ulid: flag.ulid }).orderBy('ulid', 'desc').first();
    expect(audit).toMatchObject({ result: 'success', status_code: 200, subject_type: 'flag', subject_label: 'checkout', environment_ulid: env.ulid });
  });

  it('needs flags:read, a grant for the project, and a token', async () => {
    const noScope = await managementToken(app, ['targets:read']);
    const denied = await evaluate('checkout', undefined, noScope);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ status: 'error', required_scope: 'flags:read' });

    const elsewhere = await managementToken(app, ['flags:read'], { projects: [other.key] });
    const hidden = await evaluate('checkout', undefined, elsewhere);
    expect(hidden.status).toBe(404);

    const otherEnv = await managementToken(app, ['flags:read'], { environments: [{ project: other.key, environment: 'staging' }] });
    expect((await evaluate('checkout', undefined, otherEnv)).status).toBe(404);

    const granted = await managementToken(app, ['flags:read'], { environments: [{ project: project.key, environment: env.key }] });
    const ok = await evaluate('checkout', undefined, granted);
    expect(ok.status).toBe(200);

    const anonymous = await app.request('GET', `/management/v1${path('checkout')}`);
    expect(anonymous.status).toBe(401);
  });
});
