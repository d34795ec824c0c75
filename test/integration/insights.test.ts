import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  Fixtures,
  contextHeader,
  managementToken,
  sleep,
  type EnvironmentFixture,
  type FlagFixture,
  type ProjectFixture,
} from './public-fixtures.js';

const DAY = 86_400_000;

describeEachDatabase('insights: flag insights, stale flags, default-value reports, context attributes', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let otherEnv: EnvironmentFixture;
  let clientKey: string;
  let flag: FlagFixture;

  const insightsPath = (flagKey: string, envKey = env.key) => `/projects/${project.key}/flags/${flagKey}/environments/${envKey}/insights`;
  const envPath = (suffix: string, envKey = env.key) => `/projects/${project.key}/environments/${envKey}/${suffix}`;

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    project = await fx.project();
    env = await fx.environment(project, 'production');
    otherEnv = await fx.environment(project, 'staging');
    clientKey = await fx.key(env, 'client');
    flag = await fx.flag(project, { key: 'tracked', type: 'boolean' });
    await fx.settle(env);
    await fx.settle(otherEnv);
    await fx.flushTelemetry();
    // Start from zero: settle() fetched payloads.
    await app.knex('flag_telemetry').delete();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('starts with no telemetry, last_updated_at from the flag', async () => {
    const res = await app.mgmt('GET', insightsPath('tracked'));
    expect(res.status).toBe(200);
    const created = await app.knex('flags').where('ulid', flag.ulid).first('updated_at');
    expect(res.body).toEqual({
      status: 'success',
      data: {
        flag_key: 'tracked',
        environment_key: 'production',
        last_retrieved_at: null,
        last_used_at: null,
        last_evaluated_at: null,
        last_updated_at: created.updated_at,
        retrieved_count: 0,
        used_count: 0,
        evaluated_count: 0,
      },
    });
  });

  it('counts payload retrievals, evaluations and uses per environment, in batches', async () => {
    await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
    await app.request('GET', '/v1/payload', { apiKey: clientKey });
    // A 304 is not a retrieval.
    const etag = (await app.request('GET', '/v1/payload', { apiKey: clientKey })).headers.get('etag')!;
    await app.request('GET', '/v1/payload', { apiKey: clientKey, headers: { 'If-None-Match': etag } });
    await app.request('GET', '/v1/flags', { apiKey: env.serverKey });
    await app.request('GET', '/v1/flags/tracked', { apiKey: env.serverKey });
    await app.request('POST', '/v1/flags/tracked/usage', { apiKey: clientKey, body: { count: 4 } });
    // Nothing is written per request (test/unit/evaluation covers the buffer); flush it now.
    await fx.flushTelemetry();
    const res = await app.mgmt('GET', insightsPath('tracked'));
    expect(res.body.data).toMatchObject({ retrieved_count: 3, evaluated_count: 2, used_count: 4 });
    for (const field of ['last_retrieved_at', 'last_evaluated_at', 'last_used_at']) {
      expect(Date.parse(res.body.data[field]), field).toBeGreaterThan(Date.now() - 60_000);
    }
    const other = await app.mgmt('GET', insightsPath('tracked', otherEnv.key));
    expect(other.body.data).toMatchObject({ retrieved_count: 0, used_count: 0, evaluated_count: 0, last_used_at: null });
  });

  it('moves last_updated_at with a publish in the environment, not with one elsewhere', async () => {
    const before = (await app.mgmt('GET', insightsPath('tracked'))).body.data.last_updated_at;
    await sleep(5);
    await fx.publish(otherEnv, flag, { value: 'true' });
    expect((await app.mgmt('GET', insightsPath('tracked'))).body.data.last_updated_at).toBe(before);
    await fx.publish(env, flag, { value: 'true' });
    const after = (await app.mgmt('GET', insightsPath('tracked'))).body.data.last_updated_at;
    expect(after > before).toBe(true);
  });

  it('lists stale flags: not used for `days` days, never-used ones created before, permanent ones excluded', async () => {
    const old = new Date(Date.now() - 100 * DAY).toISOString();
    const stale = await fx.flag(project, { key: 'old-unused', type: 'boolean', createdAt: old });
    await fx.flag(project, { key: 'old-permanent', type: 'boolean', createdAt: old, permanent: true });
    const usedLongAgo = await fx.flag(project, { key: 'used-long-ago', type: 'boolean', createdAt: old });
    await fx.flag(project, { key: 'used-recently', type: 'boolean', createdAt: old });
    await fx.settle(env);
    // Used "40 days ago": the clock is moved back while the use is recorded.
    app.clock.advance(-40 * DAY);
    await app.request('POST', '/v1/flags/used-long-ago/usage', { apiKey: env.serverKey });
    await fx.flushTelemetry();
    app.clock.advance(40 * DAY);
    await app.request('POST', '/v1/flags/used-recently/usage', { apiKey: env.serverKey });
    await fx.flushTelemetry();

    const res = await app.mgmt('GET', envPath('stale-flags'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((f: { key: string }) => f.key)).toEqual(['old-unused', 'used-long-ago']);
    expect(res.body.data[0]).toEqual({
      key: 'old-unused',
      name: 'Flag old-unused',
      last_used_at: null,
      last_updated_at: old,
      created_at: old,
    });
    expect(Date.parse(res.body.data[1].last_used_at)).toBeLessThan(Date.now() - 39 * DAY);
    expect(stale.key).toBe('old-unused');
    expect(usedLongAgo.key).toBe('used-long-ago');

    const fortyFive = await app.mgmt('GET', `${envPath('stale-flags')}?days=45`);
    expect(fortyFive.body.data.map((f: { key: string }) => f.key)).toEqual(['old-unused']);
    const long = await app.mgmt('GET', `${envPath('stale-flags')}?days=3650`);
    expect(long.body.data).toEqual([]);
    // In another environment nothing was used: every old flag but the permanent one is stale.
    const other = await app.mgmt('GET', envPath('stale-flags', otherEnv.key));
    expect(other.body.data.map((f: { key: string }) => f.key)).toEqual(['old-unused', 'used-long-ago', 'used-recently']);
    for (const days of ['0', '3651', 'abc', '1.5']) {
      const bad = await app.mgmt('GET', `${envPath('stale-flags')}?days=${days}`);
      expect(bad.status, days).toBe(422);
      expect(bad.body.status).toBe('error');
    }
  });

  it('reports flags requested without a declared default and declared defaults for unknown keys', async () => {
    const declared = JSON.stringify([
      { key: 'tracked', type: 'boolean', value: false },
      { key: 'ghost', type: 'number', value: 1 },
    ]);
    await app.request('GET', '/v1/flags/tracked', { apiKey: env.serverKey, headers: { 'X-VEXIL-DEFAULT-VALUE': declared } });
    await app.request('GET', '/v1/flags/ghost', { apiKey: env.serverKey, headers: { D: declared } });
    await app.request('GET', '/v1/flags/old-unused', { apiKey: env.serverKey });
    await app.request('GET', '/v1/flags/old-unused', { apiKey: env.serverKey });
    await fx.flushTelemetry();
    const res = await app.mgmt('GET', envPath('default-value-reports'));
    expect(res.status).toBe(200);
    const missing = res.body.data.missing_defaults as Array<{ flag_key: string; count: number; last_seen_at: string }>;
    expect(missing.find((m) => m.flag_key === 'old-unused')?.count).toBeGreaterThanOrEqual(2);
    expect(res.body.data.unknown_flags).toEqual([
      { flag_key: 'ghost', declared_type: 'number', count: 2, last_seen_at: expect.any(String) },
    ]);
    const seen = missing.map((m) => m.last_seen_at);
    expect([...seen].sort().reverse()).toEqual(seen);
    // Once the flag exists the key is no longer unknown.
    await fx.flag(project, { key: 'ghost', type: 'number', values: ['1'] });
    const later = await app.mgmt('GET', envPath('default-value-reports'));
    expect(later.body.data.unknown_flags).toEqual([]);
    const elsewhere = await app.mgmt('GET', envPath('default-value-reports', otherEnv.key));
    expect(elsewhere.body.data).toEqual({ missing_defaults: [], unknown_flags: [] });
    // A flag deleted since it was requested without a default is no longer reported.
    await fx.flag(project, { key: 'doomed', type: 'boolean' });
    await fx.settle(env);
    await app.request('GET', '/v1/flags/doomed', { apiKey: env.serverKey });
    await fx.flushTelemetry();
    const reported = async () =>
      ((await app.mgmt('GET', envPath('default-value-reports'))).body.data.missing_defaults as Array<{ flag_key: string }>).map(
        (m) => m.flag_key,
      );
    expect(await reported()).toContain('doomed');
    expect((await app.mgmt('DELETE', `/projects/${project.key}/flags/doomed`)).status).toBe(200);
    expect(await reported()).not.toContain('doomed');
  });

  it('lists observed context types, attributes and their most frequent values', async () => {
    const send = (context: unknown) =>
      app.request('GET', '/v1/flags/tracked', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': contextHeader(context) } });
    await send({
      type: 'user',
      identifier: 'u1',
      attributes: [
        { key: 'plan', values: [{ value: 'pro' }] },
        { key: 'country', values: [{ value: 'FR' }] },
      ],
    });
    await send({ type: 'user', identifier: 'u2', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] });
    await send({ type: 'user', identifier: 'u3', attributes: [{ key: 'plan', values: [{ value: 'free' }, { value: 'trial' }] }] });
    await send({ type: 'organization', identifier: 'o1' });
    await app.request('POST', '/ofrep/v1/evaluate/flags/tracked', {
      apiKey: env.serverKey,
      body: { context: { targetingKey: 'u4', plan: 'pro' } },
    });
    await fx.flushTelemetry();
    const res = await app.mgmt('GET', envPath('context-attributes'));
    expect(res.status).toBe(200);
    const types = res.body.data.context_types as Array<{ type: string; count: number }>;
    expect(types.find((t) => t.type === 'user')?.count).toBe(4);
    expect(types.find((t) => t.type === 'organization')?.count).toBe(1);
    expect(types[0]!.type).toBe('user');
    const plan = res.body.data.attributes.find((a: { key: string }) => a.key === 'plan');
    expect(plan).toEqual({
      key: 'plan',
      count: 4,
      values: [
        { value: 'pro', count: 3 },
        { value: 'free', count: 1 },
        { value: 'trial', count: 1 },
      ],
    });
    expect(res.body.data.attributes[0].key).toBe('plan');
    const staging = await app.mgmt('GET', envPath('context-attributes', otherEnv.key));
    expect(staging.body.data).toEqual({ context_types: [], attributes: [] });
  });

  it('keeps the observations bounded per environment', async () => {
    // 600 distinct values of one attribute in 6 contexts of 100 values each: at most 500 are stored, 100 listed.
    for (let batch = 0; batch < 6; batch++) {
      const values = Array.from({ length: 100 }, (_, i) => ({ value: `v-${batch}-${i}` }));
      const res = await app.request('POST', '/v1/flags/tracked/usage', {
        apiKey: clientKey,
        body: { context: { type: 'device', identifier: `d${batch}`, attributes: [{ key: 'many', values }] } },
      });
      expect(res.status).toBe(200);
      await fx.flushTelemetry();
    }
    const stored = await app
      .knex('context_observations')
      .where({ environment_ulid: env.ulid, kind: 'value', name: 'many' })
      .count({ n: '*' })
      .first();
    expect(Number(stored!.n)).toBe(500);
    const res = await app.mgmt('GET', envPath('context-attributes'));
    const many = res.body.data.attributes.find((a: { key: string }) => a.key === 'many');
    expect(many.count).toBe(6);
    expect(many.values).toHaveLength(100);
  });

  it('needs flags:read and a grant, answers 404 for unknown paths and 401 without a token', async () => {
    const paths = [insightsPath('tracked'), envPath('stale-flags'), envPath('default-value-reports'), envPath('context-attributes')];
    const noScope = await managementToken(app, ['targets:read', 'projects:read']);
    const otherProject = await fx.project();
    const elsewhere = await managementToken(app, ['flags:read'], { projects: [otherProject.key] });
    const stagingOnly = await managementToken(app, ['flags:read'], { environments: [{ project: project.key, environment: 'staging' }] });
    const granted = await managementToken(app, ['flags:read'], { projects: [project.key] });
    for (const p of paths) {
      const denied = await app.mgmt('GET', p, undefined, { token: noScope });
      expect(denied.status, p).toBe(403);
      expect(denied.body.required_scope).toBe('flags:read');
      expect((await app.mgmt('GET', p, undefined, { token: elsewhere })).status, p).toBe(404);
      expect((await app.mgmt('GET', p, undefined, { token: stagingOnly })).status, p).toBe(404);
      expect((await app.mgmt('GET', p, undefined, { token: granted })).status, p).toBe(200);
      expect((await app.request('GET', `/management/v1${p}`)).status, p).toBe(401);
    }
    for (const p of [
      insightsPath('nope'),
      insightsPath('tracked', 'nope'),
      envPath('stale-flags', 'nope'),
      envPath('default-value-reports', 'nope'),
      envPath('context-attributes', 'nope'),
      `/projects/nope/environments/${env.key}/stale-flags`,
    ]) {
      const res = await app.mgmt('GET', p);
      expect(res.status, p).toBe(404);
      expect(res.body.status).toBe('error');
    }
  });

  it('writes what is buffered when the server stops', async () => {
    const other = await startTestApp(db, { databaseUrl: app.composition.core.config.databaseUrl, keepDatabase: true });
    await fx.settle(env, other);
    const row = () => app.knex('flag_telemetry').where({ flag_ulid: flag.ulid, environment_ulid: env.ulid }).first();
    const before = Number((await row()).used_count);
    await other.request('POST', '/v1/flags/tracked/usage', { apiKey: env.serverKey, body: { count: 7 } });
    await other.close();
    expect(Number((await row()).used_count)).toBe(before + 7);
  });
});
