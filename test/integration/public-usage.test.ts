import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, type EnvironmentFixture, type FlagFixture, type ProjectFixture } from './public-fixtures.js';

describeEachDatabase('public usage reports: POST /v1/flags/{flagKey}/usage', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let keys: Record<'server' | 'mobile' | 'client', string>;
  let flag: FlagFixture;

  const usedCount = async () => {
    await fx.flushTelemetry();
    const row = await app.knex('flag_telemetry').where({ flag_ulid: flag.ulid, environment_ulid: env.ulid }).first();
    return row ? Number(row.used_count) : 0;
  };

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    project = await fx.project();
    env = await fx.environment(project);
    keys = { server: env.serverKey, mobile: await fx.key(env, 'mobile'), client: await fx.key(env, 'client') };
    flag = await fx.flag(project, { key: 'used-flag', type: 'boolean', include_in_mobile: false });
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('records one use without a body, for every key kind', async () => {
    for (const kind of ['server', 'mobile', 'client'] as const) {
      const res = await app.request('POST', '/v1/flags/used-flag/usage', { apiKey: keys[kind] });
      expect(res.status, kind).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
    }
    expect(await usedCount()).toBe(3);
  });

  it('records `count` uses and the context of the body', async () => {
    const before = await usedCount();
    const res = await app.request('POST', '/v1/flags/used-flag/usage', {
      apiKey: keys.client,
      body: {
        count: 5,
        context: { type: 'device', identifier: 'd-1', attributes: [{ key: 'os', values: [{ value: 'ios' }] }] },
      },
    });
    expect(res.status).toBe(200);
    const empty = await app.request('POST', '/v1/flags/used-flag/usage', { apiKey: keys.client, body: {} });
    expect(empty.status).toBe(200);
    expect(await usedCount()).toBe(before + 6);
    const observed = await app.knex('context_observations').where({ environment_ulid: env.ulid }).select('kind', 'name', 'value');
    expect(observed).toEqual(
      expect.arrayContaining([
        { kind: 'type', name: 'device', value: '' },
        { kind: 'attribute', name: 'os', value: '' },
        { kind: 'value', name: 'os', value: 'ios' },
      ]),
    );
  });

  it('answers 404 for an unknown flag or a key that cannot name one', async () => {
    for (const key of ['missing', 'BAD KEY']) {
      const res = await app.request('POST', `/v1/flags/${encodeURIComponent(key)}/usage`, { apiKey: keys.server });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'Feature flag not found.', code: expect.any(String) });
    }
  });

  it('refuses malformed bodies with 400 and records nothing', async () => {
    const before = await usedCount();
    const cases: Array<[string, string]> = [
      ['{"count": ', 'Request body is not valid JSON.'],
      ['{"count": 0}', 'Request body is invalid.'],
      ['{"count": 10001}', 'Request body is invalid.'],
      ['{"count": 1.5}', 'Request body is invalid.'],
      ['{"other": true}', 'Request body is invalid.'],
      ['[]', 'Request body is invalid.'],
      ['{"context": {"type": "user"}}', 'Context was supplied but is invalid.'],
      ['{"context": "user-1"}', 'Context was supplied but is invalid.'],
      ['{"context": {"type": "user", "identifier": "u", "attributes": [{"key": "a"}]}}', 'Context was supplied but is invalid.'],
    ];
    for (const [rawBody, message] of cases) {
      const res = await app.request('POST', '/v1/flags/used-flag/usage', {
        apiKey: keys.server,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, rawBody).toBe(400);
      expect(res.body, rawBody).toEqual({ status: 'error', message, code: 'bad_request' });
    }
    expect(await usedCount()).toBe(before);
  });

  it('answers 415 for a body that is not JSON and 413 for an oversized one', async () => {
    const form = await app.request('POST', '/v1/flags/used-flag/usage', {
      apiKey: keys.server,
      rawBody: 'count=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.status).toBe('error');
    const huge = await app.request('POST', '/v1/flags/used-flag/usage', {
      apiKey: keys.server,
      rawBody: JSON.stringify({ context: { type: 'user', identifier: 'x'.repeat(2_000_000) } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.status).toBe('error');
  });

  it('answers 401 without a valid key', async () => {
    const none = await app.request('POST', '/v1/flags/used-flag/usage');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ status: 'error', message: 'Invalid API key provided.', code: expect.any(String) });
    const bad = await app.request('POST', '/v1/flags/used-flag/usage', { apiKey: 'mob_' + 'q'.repeat(40) });
    expect(bad.status).toBe(401);
  });
});
