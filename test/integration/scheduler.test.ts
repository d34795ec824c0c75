import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { eventually } from './audit-fixtures.js';
import { createFixture, revision, type Fixture } from './targets-fixture.js';

const stepMs = 3_600_000;

async function ok(res: Promise<ApiResponse>): Promise<any> {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const createDraft = (app: TestApp, fx: Fixture) => ok(app.mgmt('POST', `${fx.base}/targets`));
const publish = (app: TestApp, fx: Fixture, ulid: string, body: Record<string, unknown> = {}) =>
  ok(app.mgmt('PUT', `${fx.base}/targets/${ulid}/publish`, body));
const publishNew = async (app: TestApp, fx: Fixture, body: Record<string, unknown> = {}) =>
  publish(app, fx, (await createDraft(app, fx)).ulid, body);
const targetRow = (app: TestApp, ulid: string) =>
  app.knex('targets').where('ulid', ulid).first('status', 'published_at', 'scheduled_at', 'rollout_percentage', 'rollout_status');

/** System audit entries about a target, oldest first. */
async function systemEntries(app: TestApp, targetUlid: string): Promise<Array<{ action: string; result: string }>> {
  const res = await app.mgmt('GET', `/audit-logs?subject_ulid=${targetUlid}&sort=created_at_asc&per_page=100`);
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ action: string; result: string; actor: { type: string } | null }>)
    .filter((e) => e.actor?.type === 'system')
    .map((e) => ({ action: e.action, result: e.result }));
}

/** Waits a few scheduler ticks (interval 100 ms in tests). */
const ticks = (n = 5) => new Promise((resolve) => setTimeout(resolve, n * 100));

describeEachDatabase('scheduler', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db, { config: { rolloutStepMs: stepMs } });
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('scheduled publishes', () => {
    it('publishes a scheduled target at scheduled_at, within 2 seconds, like an immediate publish', async () => {
      const fx = await createFixture(app);
      const base = (await publishNew(app, fx)).ulid as string;
      const draft = await createDraft(app, fx);
      const at = new Date(app.clock.now().getTime() + 1200);
      const scheduled = await publish(app, fx, draft.ulid, { scheduled_at: at.toISOString(), comment: 'later' });
      expect(scheduled).toMatchObject({ status: 'scheduled', published_at: null });
      const before = await revision(app, fx.envUlid);
      expect((await targetRow(app, draft.ulid)).status).toBe('scheduled');

      const row = await eventually(
        async () => {
          const r = await targetRow(app, draft.ulid);
          return r.status === 'published' ? r : undefined;
        },
        6000,
        20,
      );
      const late = app.clock.now().getTime() - at.getTime();
      expect(late).toBeGreaterThanOrEqual(0);
      expect(late).toBeLessThan(2000);
      expect(Date.parse(row.published_at)).toBeGreaterThanOrEqual(at.getTime());

      // Same effects as an immediate publish: the previous target expired, the revision bumped,
      // the API shows the published target.
      expect((await targetRow(app, base)).status).toBe('expired');
      expect(await revision(app, fx.envUlid)).toBe(before + 1);
      expect(await ok(app.mgmt('GET', `${fx.base}/targets/${draft.ulid}`))).toMatchObject({ status: 'published', comment: 'later' });

      // Audited once, with actor system.
      const entries = await app.mgmt('GET', `/audit-logs?subject_ulid=${draft.ulid}&action=target.published`);
      expect(entries.body.data).toEqual([
        expect.objectContaining({
          actor: { type: 'system', ulid: null, name: 'system', email: null },
          token: null,
          action: 'target.published',
          subject_type: 'target',
          result: 'success',
          http_method: null,
          status_code: null,
        }),
      ]);
      await ticks();
      expect(await systemEntries(app, draft.ulid)).toEqual([{ action: 'target.published', result: 'success' }]);
    });

    it('publishes when the clock reaches scheduled_at (TestClock), not before', async () => {
      const fx = await createFixture(app);
      const draft = await createDraft(app, fx);
      const at = new Date(app.clock.now().getTime() + 3_600_000);
      await publish(app, fx, draft.ulid, { scheduled_at: at.toISOString() });
      await ticks();
      expect((await targetRow(app, draft.ulid)).status).toBe('scheduled');
      app.clock.advance(at.getTime() - app.clock.now().getTime() - 5_000);
      await ticks();
      expect((await targetRow(app, draft.ulid)).status).toBe('scheduled');
      app.clock.advance(5_000);
      await eventually(async () => ((await targetRow(app, draft.ulid)).status === 'published' ? true : undefined), 2000, 20);
    });

    it('publishes a scheduled target with an automatic rollout, which then starts at 1 %', async () => {
      const fx = await createFixture(app);
      await publishNew(app, fx);
      const draft = await createDraft(app, fx);
      const at = new Date(app.clock.now().getTime() + 60_000);
      await publish(app, fx, draft.ulid, { scheduled_at: at.toISOString(), rollout_enabled: true, rollout_mode: 'automatic' });
      app.clock.advance(60_000);
      const row = await eventually(
        async () => {
          const r = await targetRow(app, draft.ulid);
          return r.status === 'published' ? r : undefined;
        },
        2000,
        20,
      );
      expect(row).toMatchObject({ rollout_percentage: 1, rollout_status: 'active' });
    });
  });

  describe('automatic rollouts', () => {
    async function waitForPercentage(ulid: string, percentage: number) {
      return eventually(
        async () => {
          const r = await targetRow(app, ulid);
          return r.rollout_percentage === percentage ? r : undefined;
        },
        3000,
        20,
      );
    }

    it('advances through 1, 5, 10, 25, 50, 100 once per interval and completes at 100', async () => {
      const fx = await createFixture(app);
      const base = (await publishNew(app, fx)).ulid as string;
      const target = await publishNew(app, fx, { rollout_enabled: true, rollout_mode: 'automatic' });
      expect(target).toMatchObject({ rollout_percentage: 1, rollout_status: 'active', rollout_mode: 'automatic' });
      for (const step of [5, 10, 25, 50]) {
        app.clock.advance(stepMs - 1000);
        await ticks(3);
        expect((await targetRow(app, target.ulid)).rollout_percentage, `before step ${step}`).not.toBe(step);
        app.clock.advance(1000);
        const row = await waitForPercentage(target.ulid, step);
        expect(row.rollout_status).toBe('active');
        // One step per interval: no second step without another interval.
        await ticks(3);
        expect((await targetRow(app, target.ulid)).rollout_percentage).toBe(step);
        expect((await targetRow(app, base)).status).toBe('published');
      }
      const revisionBefore = await revision(app, fx.envUlid);
      app.clock.advance(stepMs);
      const done = await waitForPercentage(target.ulid, 100);
      expect(done.rollout_status).toBe('completed');
      expect((await targetRow(app, base)).status).toBe('expired');
      expect(await revision(app, fx.envUlid)).toBeGreaterThan(revisionBefore);
      app.clock.advance(stepMs * 2);
      await ticks(3);
      expect(await systemEntries(app, target.ulid)).toEqual([
        { action: 'target.rollout_updated', result: 'success' },
        { action: 'target.rollout_updated', result: 'success' },
        { action: 'target.rollout_updated', result: 'success' },
        { action: 'target.rollout_updated', result: 'success' },
        { action: 'target.rollout_completed', result: 'success' },
      ]);
      expect(await ok(app.mgmt('GET', `${fx.base}/targets/${target.ulid}`))).toMatchObject({
        rollout_percentage: 100,
        rollout_status: 'completed',
      });
    });

    it('pause stops the clock; resume restarts the interval at the current step', async () => {
      const fx = await createFixture(app);
      await publishNew(app, fx);
      const target = await publishNew(app, fx, { rollout_enabled: true, rollout_mode: 'automatic' });
      app.clock.advance(stepMs);
      await waitForPercentage(target.ulid, 5);

      await ok(app.mgmt('PUT', `${fx.base}/targets/${target.ulid}/rollout`, { action: 'pause' }));
      app.clock.advance(stepMs * 3);
      await ticks();
      expect(await targetRow(app, target.ulid)).toMatchObject({ rollout_percentage: 5, rollout_status: 'paused' });

      await ok(app.mgmt('PUT', `${fx.base}/targets/${target.ulid}/rollout`, { action: 'resume' }));
      app.clock.advance(stepMs - 2000);
      await ticks();
      expect(await targetRow(app, target.ulid)).toMatchObject({ rollout_percentage: 5, rollout_status: 'active' });
      app.clock.advance(2000);
      await waitForPercentage(target.ulid, 10);
    });

    it('leaves manual rollouts alone', async () => {
      const fx = await createFixture(app);
      await publishNew(app, fx);
      const target = await publishNew(app, fx, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 20 });
      app.clock.advance(stepMs * 2);
      await ticks();
      expect(await targetRow(app, target.ulid)).toMatchObject({ rollout_percentage: 20, rollout_status: 'active' });
      expect(await systemEntries(app, target.ulid)).toEqual([]);
    });
  });
});

describeEachDatabase('scheduler with two instances on one database', (db) => {
  let first: TestApp;
  let second: TestApp;
  const config = { rolloutStepMs: stepMs, schedulerIntervalMs: 20 };

  beforeAll(async () => {
    first = await startTestApp(db, { config });
    second = await startTestApp(db, { config, databaseUrl: first.composition.core.config.databaseUrl, keepDatabase: true });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const advanceBoth = (ms: number) => {
    first.clock.advance(ms);
    second.clock.offsetMs = first.clock.offsetMs;
  };

  it('publishes each scheduled target once and takes each rollout step once', async () => {
    const fixtures: Fixture[] = [];
    for (let i = 0; i < 4; i++) fixtures.push(await createFixture(first));
    const at = new Date(first.clock.now().getTime() + 30_000).toISOString();
    const scheduled: string[] = [];
    const revisions: number[] = [];
    for (const fx of fixtures) {
      await publishNew(first, fx);
      for (let j = 0; j < 3; j++) {
        const draft = await createDraft(first, fx);
        await publish(first, fx, draft.ulid, { scheduled_at: at });
        scheduled.push(draft.ulid);
      }
      revisions.push(await revision(first, fx.envUlid));
    }
    advanceBoth(30_000);
    await eventually(
      async () => {
        const left = await first.knex('targets').whereIn('ulid', scheduled).where('status', 'scheduled').count({ n: '*' }).first();
        return Number(left?.n) === 0 ? true : undefined;
      },
      10_000,
      25,
    );
    await ticks(5);
    for (const ulid of scheduled) {
      expect(await systemEntries(first, ulid), ulid).toEqual([{ action: 'target.published', result: 'success' }]);
    }
    // Three publishes per environment, one revision each; exactly one target serves per flag.
    for (const [i, fx] of fixtures.entries()) {
      expect(await revision(first, fx.envUlid)).toBe((revisions[i] as number) + 3);
      const published = await first.knex('targets').where({ flag_ulid: fx.flagUlid, environment_ulid: fx.envUlid, status: 'published' });
      expect(published.length).toBe(1);
    }

    // Automatic rollouts, both instances ticking every 20 ms.
    const rollouts: string[] = [];
    for (const fx of fixtures) rollouts.push((await publishNew(first, fx, { rollout_enabled: true, rollout_mode: 'automatic' })).ulid);
    for (const step of [5, 10, 25, 50, 100]) {
      advanceBoth(stepMs);
      await eventually(
        async () => {
          const rows = await first.knex('targets').whereIn('ulid', rollouts).select('rollout_percentage');
          return rows.every((r: { rollout_percentage: number }) => r.rollout_percentage === step) ? true : undefined;
        },
        5000,
        25,
      );
      await ticks(3);
    }
    for (const ulid of rollouts) {
      expect(await systemEntries(first, ulid), ulid).toEqual([
        ...Array(4).fill({ action: 'target.rollout_updated', result: 'success' }),
        { action: 'target.rollout_completed', result: 'success' },
      ]);
    }
  });

  it('neither loses nor repeats a due job across a restart', async () => {
    const fx = await createFixture(first);
    await publishNew(first, fx);
    const draft = await createDraft(first, fx);
    const at = new Date(first.clock.now().getTime() + 60_000).toISOString();
    await publish(first, fx, draft.ulid, { scheduled_at: at });
    // Both instances stop before the job is due...
    const url = first.composition.core.config.databaseUrl;
    const offset = first.clock.offsetMs;
    await second.close();
    for (const task of first.composition.tasks) await task.stop();
    // ...and a new instance starts after it is due: it publishes the target once.
    second = await startTestApp(db, { config, databaseUrl: url, keepDatabase: true });
    second.clock.offsetMs = offset + 120_000;
    await eventually(async () => ((await targetRow(second, draft.ulid)).status === 'published' ? true : undefined), 3000, 20);
    // Restarting the first instance does not publish it again.
    for (const task of first.composition.tasks) task.start();
    first.clock.offsetMs = second.clock.offsetMs;
    await ticks(5);
    expect(await systemEntries(second, draft.ulid)).toEqual([{ action: 'target.published', result: 'success' }]);
  });
});
