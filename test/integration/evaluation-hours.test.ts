import { afterAll, beforeAll, expect, it } from 'vitest';
import { purgeOldEvaluationHours } from '../../src/runtime/evaluation-hours-retention.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, managementToken, type EnvironmentFixture, type FlagFixture, type ProjectFixture } from './public-fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeEachDatabase('evaluations per hour (listFlagEvaluationHours)', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let otherEnv: EnvironmentFixture;
  let flag: FlagFixture;

  const evaluationsPath = (flagKey: string, envKey = env.key) =>
    `/projects/${project.key}/flags/${flagKey}/environments/${envKey}/evaluations`;
  const hourOf = (ms: number) => new Date(Math.floor(ms / HOUR) * HOUR).toISOString();
  const evaluateOnce = async (flagKey: string) => {
    const res = await app.request('GET', `/v1/flags/${flagKey}`, { apiKey: env.serverKey });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    project = await fx.project();
    env = await fx.environment(project, 'production');
    otherEnv = await fx.environment(project, 'staging');
    flag = await fx.flag(project, { key: 'colour', type: 'string', values: ['blue', 'green'] });
    await fx.flag(project, { key: 'other', type: 'boolean' });
    await fx.publish(env, flag, { value: 'green' });
    await fx.settle(env);
    await fx.settle(otherEnv);
    await fx.flushTelemetry();
    await app.knex('evaluation_hours').delete();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers no buckets and a zero total before any evaluation', async () => {
    const res = await app.mgmt('GET', evaluationsPath('colour'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', data: { hours: 168, buckets: [], total_24h: 0 } });
  });

  it('counts evaluations through /v1 and OFREP per hour and served value, written by the telemetry flush', async () => {
    await evaluateOnce('colour');
    await evaluateOnce('colour');
    expect((await app.request('GET', '/v1/flags', { apiKey: env.serverKey })).status).toBe(200);
    const single = await app.request('POST', '/ofrep/v1/evaluate/flags/colour', {
      apiKey: env.serverKey,
      body: { context: { targetingKey: 'u1' } },
    });
    expect(single.status).toBe(200);
    const bulk = await app.request('POST', '/ofrep/v1/evaluate/flags', {
      apiKey: env.serverKey,
      body: { context: { targetingKey: 'u2' } },
    });
    expect(bulk.status).toBe(200);
    await fx.flushTelemetry();

    const res = await app.mgmt('GET', evaluationsPath('colour'));
    expect(res.status).toBe(200);
    const hour = hourOf(app.clock.now().getTime());
    expect(res.body.data).toEqual({ hours: 168, buckets: [{ hour, value: 'green', count: 5 }], total_24h: 5 });
    // The boolean flag was evaluated by GET /v1/flags and the OFREP bulk evaluation: its default, false.
    const other = await app.mgmt('GET', evaluationsPath('other'));
    expect(other.body.data.buckets).toEqual([{ hour, value: 'false', count: 2 }]);
    // Per environment: nothing was evaluated in staging.
    const staging = await app.mgmt('GET', evaluationsPath('colour', otherEnv.key));
    expect(staging.body.data).toEqual({ hours: 168, buckets: [], total_24h: 0 });
  });

  it('lists the last `hours` hours, oldest first, and totals the last 24 hours', async () => {
    const now = app.clock.now().getTime();
    app.clock.advance(-3 * HOUR);
    await evaluateOnce('colour');
    await fx.flushTelemetry();
    app.clock.advance(-27 * HOUR);
    await evaluateOnce('colour');
    await evaluateOnce('colour');
    await fx.flushTelemetry();
    app.clock.advance(30 * HOUR);

    const all = await app.mgmt('GET', evaluationsPath('colour'));
    expect(all.body.data.buckets).toEqual([
      { hour: hourOf(now - 30 * HOUR), value: 'green', count: 2 },
      { hour: hourOf(now - 3 * HOUR), value: 'green', count: 1 },
      { hour: hourOf(now), value: 'green', count: 5 },
    ]);
    expect(all.body.data.total_24h).toBe(6);
    const lastHour = await app.mgmt('GET', `${evaluationsPath('colour')}?hours=1`);
    expect(lastHour.body.data).toEqual({ hours: 1, buckets: [{ hour: hourOf(now), value: 'green', count: 5 }], total_24h: 6 });
    const lastDay = await app.mgmt('GET', `${evaluationsPath('colour')}?hours=24`);
    expect(lastDay.body.data.buckets).toHaveLength(2);

    // Another value served from now on: a bucket of its own in the same hour.
    await fx.publish(env, flag, { value: 'blue' });
    await fx.settle(env);
    await evaluateOnce('colour');
    await fx.flushTelemetry();
    const after = await app.mgmt('GET', `${evaluationsPath('colour')}?hours=1`);
    expect(after.body.data.buckets).toEqual([
      { hour: hourOf(now), value: 'blue', count: 1 },
      { hour: hourOf(now), value: 'green', count: 5 },
    ]);
    expect(after.body.data.total_24h).toBe(7);
  });

  it('answers 422 for a bad `hours`, 404 for unknown paths, 403 without flags:read, 401 without a token', async () => {
    for (const hours of ['0', '169', 'abc', '1.5', '-1']) {
      const bad = await app.mgmt('GET', `${evaluationsPath('colour')}?hours=${hours}`);
      expect(bad.status, hours).toBe(422);
      expect(bad.body.status).toBe('error');
    }
    expect((await app.mgmt('GET', evaluationsPath('missing'))).status).toBe(404);
    expect((await app.mgmt('GET', evaluationsPath('colour', 'missing'))).status).toBe(404);
    const noScope = await managementToken(app, ['targets:read', 'projects:read']);
    const denied = await app.mgmt('GET', evaluationsPath('colour'), undefined, { token: noScope });
    expect(denied.status).toBe(403);
    expect(denied.body.required_scope).toBe('flags:read');
    expect((await app.request('GET', `/management/v1${evaluationsPath('colour')}`)).status).toBe(401);
  });

  it('deletes counts older than the retention period, and nothing at 0', async () => {
    const old = hourOf(app.clock.now().getTime() - 100 * DAY);
    await app.knex('evaluation_hours').insert([
      { environment_ulid: env.ulid, flag_ulid: flag.ulid, hour: old, value_digest: 'a'.repeat(64), value: 'green', count: 3 },
      {
        environment_ulid: env.ulid,
        flag_ulid: flag.ulid,
        hour: hourOf(app.clock.now().getTime() - 99 * DAY),
        value_digest: 'a'.repeat(64),
        value: 'green',
        count: 4,
      },
    ]);
    const stored = async () => Number((await app.knex('evaluation_hours').count({ n: '*' }).first())!.n);
    const before = await stored();
    expect(await purgeOldEvaluationHours(app.knex, app.clock, 0)).toBe(0);
    expect(await stored()).toBe(before);
    expect(await purgeOldEvaluationHours(app.knex, app.clock, 90, 1)).toBe(2);
    expect(await stored()).toBe(before - 2);
    // What is within the retention stays.
    expect((await app.mgmt('GET', evaluationsPath('colour'))).body.data.total_24h).toBe(7);
  });
  it("gives each environment's last-24-hours total in the flag's serving state, as the hours operation counts it", async () => {
    await evaluateOnce('colour');
    await fx.flushTelemetry();
    const flagRead = await app.mgmt('GET', `/projects/${project.key}/flags/colour?include=serving`);
    const listed = await app.mgmt('GET', `/projects/${project.key}/flags?include=serving`);
    const listedColour = listed.body.data.find((f: { key: string }) => f.key === 'colour');
    for (const environment of [env, otherEnv]) {
      const total = (await app.mgmt('GET', evaluationsPath('colour', environment.key))).body.data.total_24h;
      const stateIn = (states: Array<{ environment_key: string; evaluations_24h: number }>) =>
        states.find((s) => s.environment_key === environment.key)?.evaluations_24h;
      expect(stateIn(flagRead.body.data.environments), environment.key).toBe(total);
      expect(stateIn(listedColour.environments), environment.key).toBe(total);
    }
    expect(
      flagRead.body.data.environments.find((s: { environment_key: string }) => s.environment_key === env.key).evaluations_24h,
    ).toBeGreaterThan(0);
    // A day later the same evaluations are out of the window.
    app.clock.advance(DAY);
    const later = await app.mgmt('GET', `/projects/${project.key}/flags/colour?include=serving`);
    expect(later.body.data.environments.map((s: { evaluations_24h: number }) => s.evaluations_24h)).toEqual([0, 0]);
    app.clock.advance(-DAY);
  });
});
