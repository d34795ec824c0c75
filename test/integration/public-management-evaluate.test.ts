import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { Fixtures, managementToken, type EnvironmentFixture, type FlagFixture, type ProjectFixture } from './public-fixtures.js';

/**
 * Management preview: GET /projects/{p}/flags/{f}/environments/{e}/evaluate (evaluateFlag, the
 * context in a query parameter) and its twin POST .../evaluate (evaluateFlagForContext, the context
 * in the body). Every case runs through both.
 */
describeEachDatabase('management evaluateFlag and evaluateFlagForContext', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let flag: FlagFixture;
  let other: ProjectFixture;

  const path = (flagKey: string, envKey = env.key, projectKey = project.key) =>
    `/projects/${projectKey}/flags/${flagKey}/environments/${envKey}/evaluate`;
  type Evaluate = (flagKey: string, context?: unknown, token?: string) => Promise<ApiResponse>;
  const forms: Record<'query' | 'body', Evaluate> = {
    query: (flagKey, context, token) =>
      app.mgmt(
        'GET',
        path(flagKey) +
          (context === undefined ? '' : `?context=${encodeURIComponent(typeof context === 'string' ? context : JSON.stringify(context))}`),
        undefined,
        token ? { token } : {},
      ),
    body: (flagKey, context, token) =>
      app.mgmt('POST', path(flagKey), context === undefined ? undefined : { context }, token ? { token } : {}),
  };
  const nothingAnswered = { target: 'none', target_ulid: null, rollout: null, prerequisite_failed: null, rules: [] };
  const both = Object.entries(forms) as Array<['query' | 'body', Evaluate]>;

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
    for (const [form, evaluate] of both) {
      const res = await evaluate('checkout');
      expect(res.status, form).toBe(200);
      expect(res.body, form).toEqual({
        status: 'success',
        data: { key: 'checkout', name: 'Checkout', type: 'string', value: 'a', resolved_by: 'default', explanation: nothingAnswered },
      });
      const none = await evaluate('valueless');
      expect(none.body.data, form).toEqual({
        key: 'valueless',
        name: 'Flag valueless',
        type: 'json',
        value: null,
        resolved_by: 'unavailable',
        explanation: nothingAnswered,
      });
    }
  });

  it('reflects a publish at once (no waiting for the poller): target, rule, rollout', async () => {
    const pro = { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] };
    await fx.publish(env, flag, {
      value: 'b',
      rules: [{ value: 'c', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
    });
    const newest = async () =>
      (await app.mgmt('GET', `/projects/${project.key}/flags/checkout/environments/${env.key}/targets`)).body.data.find(
        (t: { status: string }) => t.status === 'published',
      ).ulid as string;
    const ruled = await newest();
    for (const [form, evaluate] of both) {
      // No rule matched: the plan criterion (the first, 0) failed, and the target's value served.
      expect((await evaluate('checkout')).body.data, form).toMatchObject({
        value: 'b',
        resolved_by: 'target',
        explanation: {
          target: 'newest',
          target_ulid: ruled,
          rollout: null,
          prerequisite_failed: null,
          rules: [
            {
              position: 0,
              ulid: expect.stringMatching(/^rul_/),
              description: expect.any(String),
              matched: false,
              first_unmatched_criterion: 0,
            },
          ],
        },
      });
      expect((await evaluate('checkout', pro)).body.data, form).toMatchObject({
        value: 'c',
        resolved_by: 'rule',
        explanation: { target: 'newest', rules: [{ position: 0, matched: true, first_unmatched_criterion: null }] },
      });
    }

    await fx.publish(env, flag, { value: 'a', rollout: { percentage: 100 } });
    for (const [form, evaluate] of both) {
      const rollout = await evaluate('checkout', { type: 'user', identifier: 'u1' });
      expect(rollout.body.data, form).toMatchObject({ value: 'a', resolved_by: 'rollout' });
      expect(rollout.body.data.explanation, form).toEqual({
        target: 'newest',
        target_ulid: await newest(),
        rollout: { percentage: 100, bucket: expect.any(Number), in_rollout: true },
        prerequisite_failed: null,
        rules: [],
      });
      // Without an identifier nobody is inside a partial rollout: the previous target (and its rule) serve.
      const anonymous = await evaluate('checkout');
      expect(anonymous.body.data, form).toMatchObject({ value: 'b', resolved_by: 'target' });
      expect(anonymous.body.data.explanation, form).toMatchObject({
        target: 'previous',
        target_ulid: ruled,
        rollout: { percentage: 100, bucket: null, in_rollout: false },
        rules: [{ position: 0, matched: false, first_unmatched_criterion: 0 }],
      });
    }
  });

  it('refuses a context that is not a JSON Context with 422 (query: standard envelope; body: field-keyed)', async () => {
    for (const context of ['{', '[]', JSON.stringify({ type: 'user' }), JSON.stringify({ type: 'user', identifier: 'u', x: 1 })]) {
      const res = await forms.query('checkout', context);
      expect(res.status, context).toBe(422);
      expect(res.body).toMatchObject({ status: 'error', code: 'invalid_query' });
      expect(typeof res.body.message).toBe('string');
    }
    for (const context of [[], 'user', null, { type: 'user' }, { type: 'user', identifier: 'u', x: 1 }]) {
      const res = await forms.body('checkout', context);
      expect(res.status, JSON.stringify(context)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(
        Object.keys(res.body.errors).every((field) => field === 'context' || field.startsWith('context.')),
        JSON.stringify(res.body),
      ).toBe(true);
    }
    const extra = await app.mgmt('POST', path('checkout'), { context: { type: 'user', identifier: 'u' }, more: 1 });
    expect(extra.status).toBe(422);
    expect(extra.body.errors).toHaveProperty('more');
    const malformed = await app.request('POST', `/management/v1${path('checkout')}`, {
      token: app.ownerToken,
      rawBody: '{"context":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });

  it('answers 404 for an unknown project, flag or environment', async () => {
    for (const p of [path('nope'), path('checkout', 'nope'), path('checkout', env.key, 'nope')]) {
      for (const method of ['GET', 'POST']) {
        const res = await app.mgmt(method, p);
        expect(res.status, `${method} ${p}`).toBe(404);
        expect(res.body.status).toBe('error');
      }
    }
  });

  it('is not counted in telemetry, and is audited as flag.evaluated', async () => {
    const row = () => app.knex('flag_telemetry').where({ flag_ulid: flag.ulid, environment_ulid: env.ulid }).first();
    for (const [form, evaluate] of both) {
      await fx.flushTelemetry();
      const before = await row();
      const marker = await app.knex('audit_entries').max({ last: 'ulid' }).first();
      await evaluate('checkout', { type: 'user', identifier: 'audited' });
      await fx.flushTelemetry();
      // (fx.settle fetched payloads, so retrieval counts exist; evaluation counts must not move.)
      expect(await row(), form).toEqual(before);
      expect(Number(before?.evaluated_count ?? 0), form).toBe(0);
      const audit = await app
        .knex('audit_entries')
        .where({ action: 'flag.evaluated', subject_ulid: flag.ulid })
        .andWhere('ulid', '>', marker?.last ?? '')
        .first();
      expect(audit, form).toMatchObject({
        result: 'success',
        status_code: 200,
        subject_type: 'flag',
        subject_label: 'checkout',
        environment_ulid: env.ulid,
        http_method: form === 'query' ? 'GET' : 'POST',
      });
    }
  });

  it('needs flags:read, a grant for the project, and a token', async () => {
    const noScope = await managementToken(app, ['targets:read']);
    const elsewhere = await managementToken(app, ['flags:read'], { projects: [other.key] });
    const otherEnv = await managementToken(app, ['flags:read'], { environments: [{ project: other.key, environment: 'staging' }] });
    const granted = await managementToken(app, ['flags:read'], { environments: [{ project: project.key, environment: env.key }] });
    for (const [form, evaluate] of both) {
      const denied = await evaluate('checkout', undefined, noScope);
      expect(denied.status, form).toBe(403);
      expect(denied.body).toMatchObject({ status: 'error', required_scope: 'flags:read' });
      expect((await evaluate('checkout', undefined, elsewhere)).status, form).toBe(404);
      expect((await evaluate('checkout', undefined, otherEnv)).status, form).toBe(404);
      expect((await evaluate('checkout', { type: 'user', identifier: 'u' }, granted)).status, form).toBe(200);
    }
    expect((await app.request('GET', `/management/v1${path('checkout')}`)).status).toBe(401);
    expect((await app.request('POST', `/management/v1${path('checkout')}`, { body: {} })).status).toBe(401);
  });
});
