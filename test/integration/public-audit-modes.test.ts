import { describe, expect, it } from 'vitest';
import { parsePublicAuditMode } from '../../src/audit/public-audit-mode.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures } from './public-fixtures.js';

interface Listed {
  action: string;
  subject_label: string | null;
  status_code: number;
  count: number;
  created_at: string;
}

/** The public audit trail in each mode of VEXIL_PUBLIC_AUDIT, written to the database and listed through the API. Each test starts its own app, hence the longer limits. */
describeEachDatabase('public audit modes', (db) => {
  /** An app in `mode` with an environment, published flags `on` and `off`, and its server key's secret and ulid. */
  async function setUp(mode: string, capacity?: number) {
    const app = await startTestApp(db, {
      config: { publicAudit: { mode: parsePublicAuditMode(mode), capacity: capacity ?? 50_000, flushIntervalMs: 1000 } },
    });
    const fx = new Fixtures(app);
    const { project, env } = await fx.keyedEnvironment('production');
    const flag = await fx.flag(project, { key: 'on', type: 'boolean' });
    await fx.publish(env, flag, { value: 'true' });
    const off = await fx.flag(project, { key: 'off', type: 'boolean' });
    await fx.publish(env, off, { value: 'false' });
    await fx.settle(env);
    const keyUlid: string = (await app.knex('environment_keys').where({ environment_ulid: env.ulid, kind: 'server' }).first()).ulid;
    return { app, clientKey: env.serverKey, keyUlid };
  }

  const get = async (app: TestApp, path: string, apiKey?: string) =>
    (await app.request('GET', path, apiKey === undefined ? {} : { apiKey })).status;

  /** The key's evaluation entries through GET /api-public-audit-logs, oldest first (settle() read the payload with it too). */
  async function listed(app: TestApp, keyUlid: string): Promise<Listed[]> {
    const res = await app.request(
      'GET',
      `/management/v1/api-public-audit-logs?actor_ulid=${keyUlid}&action=flag.evaluated&sort=created_at_asc&per_page=100`,
      { token: app.ownerToken },
    );
    expect(res.status).toBe(200);
    return res.body.data;
  }
  const summary = (entries: Listed[]) => entries.map((e) => `${e.subject_label} ${e.status_code} x${e.count}`);

  /** Three answers of 200, one 404 and one 401 (an anonymous request to a path of its own). */
  async function traffic(app: TestApp, clientKey: string, anonymousPath: string): Promise<void> {
    expect(await get(app, '/v1/flags/on', clientKey)).toBe(200);
    expect(await get(app, '/v1/flags/on', clientKey)).toBe(200);
    expect(await get(app, '/v1/flags/off', clientKey)).toBe(200);
    expect(await get(app, '/v1/flags/missing', clientKey)).toBe(404);
    expect(await get(app, anonymousPath)).toBe(401);
  }

  it('every (the default): one entry per request', async () => {
    const { app, clientKey, keyUlid } = await setUp('every');
    try {
      await traffic(app, clientKey, '/v1/flags/every-anonymous');
      await app.composition.publicAudit.flush();
      expect(summary(await listed(app, keyUlid))).toEqual(['on 200 x1', 'on 200 x1', 'off 200 x1', 'missing 404 x1']);
      const anonymous = await app.knex('public_audit_entries').where('http_path', '/v1/flags/every-anonymous').select('count');
      expect(anonymous.map((row) => Number(row.count))).toEqual([1]);
    } finally {
      await app.close();
    }
  }, 120_000);

  it('errors: only answers of 400 and above, refusals of keys included', async () => {
    const { app, clientKey, keyUlid } = await setUp('errors');
    try {
      await traffic(app, clientKey, '/v1/flags/errors-anonymous');
      await app.composition.publicAudit.flush();
      expect(summary(await listed(app, keyUlid))).toEqual(['missing 404 x1']);
      const anonymous = await app
        .knex('public_audit_entries')
        .where('http_path', '/v1/flags/errors-anonymous')
        .select('action', 'status_code');
      expect(anonymous.map((row) => [row.action, Number(row.status_code)])).toEqual([['auth.missing_key', 401]]);
    } finally {
      await app.close();
    }
  }, 120_000);

  it('sample:0.5: every other successful request and every error', async () => {
    const { app, clientKey, keyUlid } = await setUp('sample:0.5');
    try {
      for (let i = 0; i < 10; i++) expect(await get(app, '/v1/flags/on', clientKey)).toBe(200);
      expect(await get(app, '/v1/flags/missing', clientKey)).toBe(404);
      expect(await get(app, '/v1/flags/missing', clientKey)).toBe(404);
      await app.composition.publicAudit.flush();
      const entries = summary(await listed(app, keyUlid));
      expect(entries.filter((e) => e === 'on 200 x1').length).toBe(5);
      expect(entries.filter((e) => e === 'missing 404 x1').length).toBe(2);
      expect(entries.length).toBe(7);
    } finally {
      await app.close();
    }
  }, 120_000);

  it('aggregate: one entry per key, subject, status and minute with its count, written once the minute is over', async () => {
    const { app, clientKey, keyUlid } = await setUp('aggregate');
    try {
      // Start at the beginning of a minute, so the requests below all fall into one.
      const now = app.clock.now().getTime();
      app.clock.advance(60_000 - (now % 60_000) + 1);
      const minuteStart = new Date(app.clock.now().getTime() - 1).toISOString();
      await traffic(app, clientKey, '/v1/flags/aggregate-anonymous');
      for (let i = 0; i < 4; i++) expect(await get(app, '/v1/flags/on', clientKey)).toBe(200);
      await app.composition.publicAudit.flush();
      expect(await listed(app, keyUlid)).toEqual([]); // the minute is still open

      app.clock.advance(60_000);
      await app.composition.publicAudit.flush();
      const entries = await listed(app, keyUlid);
      expect(summary(entries)).toEqual(['on 200 x6', 'off 200 x1', 'missing 404 x1']);
      for (const entry of entries) {
        expect(entry.action).toBe('flag.evaluated');
        expect(entry.created_at.slice(0, 16)).toBe(minuteStart.slice(0, 16));
      }
      const anonymous = await app.knex('public_audit_entries').where('http_path', '/v1/flags/aggregate-anonymous').select('count');
      expect(anonymous.map((row) => Number(row.count))).toEqual([1]);
    } finally {
      await app.close();
    }
  }, 120_000);

  it('aggregate: the open minute is written when the instance stops', async () => {
    const { app, clientKey, keyUlid } = await setUp('aggregate');
    const now = app.clock.now().getTime();
    app.clock.advance(60_000 - (now % 60_000) + 1);
    for (let i = 0; i < 3; i++) expect(await get(app, '/v1/flags/off', clientKey)).toBe(200);
    const knex = app.knex;
    await app.composition.stopTasks();
    const rows = await knex('public_audit_entries')
      .where('actor_ulid', keyUlid)
      .whereNot('http_path', '/v1/payload')
      .select('subject_label', 'count');
    expect(rows.map((row) => [row.subject_label, Number(row.count)])).toEqual([['off', 3]]);
    await app.close();
  }, 120_000);

  describe('a full buffer', () => {
    it('drops entries without delaying answers and counts them in /metrics', async () => {
      // aggregate holds the minute's groups in memory until the minute is over: a buffer of 2
      // groups fills deterministically.
      const { app, clientKey } = await setUp('aggregate', 2);
      try {
        const now = app.clock.now().getTime();
        app.clock.advance(60_000 - (now % 60_000) + 1);
        await app.composition.publicAudit.flush();
        const before = app.composition.publicAudit.droppedTotal;
        const held = app.composition.publicAudit.size;
        for (let i = 0; i < 6; i++) expect(await get(app, `/v1/flags/unknown-${i}`, clientKey)).toBe(404);
        expect(app.composition.publicAudit.droppedTotal - before).toBe(6 - (2 - held));
        const metrics = await app.request('GET', '/metrics');
        const line = (metrics.body as string)
          .split('\n')
          .find((l) => l.startsWith('vexil_buffer_rows_dropped_total{buffer="public_audit"}'));
        expect(Number(line?.split(' ')[1])).toBe(app.composition.publicAudit.droppedTotal);
      } finally {
        await app.close();
      }
    }, 120_000);
  });
});
