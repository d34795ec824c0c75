import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTargetPublisher, type TargetPublisher } from '../../src/features/targets/index.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createFixture, type Fixture } from './targets-fixture.js';

/**
 * `rollout_next_step_at` and `rollout_next_percentage` of a Target: when and to what the
 * scheduler takes an active automatic rollout next (the step's start plus the step interval),
 * null for every other target. Responses are checked against the document by the test app.
 */
describeEachDatabase('targets: the next automatic rollout step', (db) => {
  let app: TestApp;
  let publisher: TargetPublisher;
  // Not the default hour: the answers follow the configured interval.
  const stepMs = 7 * 60_000;
  const none = { rollout_next_step_at: null, rollout_next_percentage: null };

  beforeAll(async () => {
    app = await startTestApp(db, { config: { rolloutStepMs: stepMs } });
    publisher = createTargetPublisher({ ...app.composition.core, auditWriter: app.composition.auditWriter });
  });
  afterAll(async () => {
    await app?.close();
  });

  const later = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

  async function target(fx: Fixture, ulid: string) {
    const res = await app.mgmt('GET', `${fx.base}/targets/${ulid}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  async function draft(fx: Fixture): Promise<string> {
    const res = await app.mgmt('POST', `${fx.base}/targets`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject(none);
    return res.body.data.ulid;
  }

  async function publish(fx: Fixture, ulid: string, body: Record<string, unknown>) {
    const res = await app.mgmt('PUT', `${fx.base}/targets/${ulid}/publish`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  /** When the rollout's current step started, as the scheduler reads it. */
  async function stepStart(ulid: string): Promise<string> {
    const row = await app.knex('targets').where('ulid', ulid).first('rollout_step_started_at');
    return new Date(row.rollout_step_started_at).toISOString();
  }

  it('is one interval after the publish, to 5 %, in every answer that shows the target', async () => {
    const fx = await createFixture(app);
    await publish(fx, await draft(fx), {});
    const ulid = await draft(fx);
    const published = await publish(fx, ulid, { rollout_enabled: true, rollout_mode: 'automatic' });
    const expected = { rollout_percentage: 1, rollout_next_step_at: later(published.published_at, stepMs), rollout_next_percentage: 5 };
    expect(published).toMatchObject(expected);
    expect(await target(fx, ulid)).toMatchObject(expected);
    const listed = await app.mgmt('GET', `${fx.base}/targets`);
    expect(listed.body.data.find((t: { ulid: string }) => t.ulid === ulid)).toMatchObject(expected);
    // The audit log records the target as the API showed it.
    const audit = await app.mgmt('GET', `/audit-logs?subject_ulid=${ulid}&action=target.published`);
    expect(audit.body.data[0].changes.after).toMatchObject(expected);
  });

  it('moves with each step the scheduler takes: 5, 10, 25, 50, then 100, which completes it', async () => {
    const fx = await createFixture(app);
    const ulid = await draft(fx);
    await publish(fx, ulid, { rollout_enabled: true, rollout_mode: 'automatic' });
    const seen: Array<[number, number | null]> = [];
    for (let step = 0; step < 5; step++) {
      const before = await target(fx, ulid);
      // Not yet due: the scheduler leaves it, and the answer stays.
      app.clock.advance(stepMs - 1000);
      await publisher.advanceRollouts();
      expect(await target(fx, ulid)).toMatchObject({
        rollout_percentage: before.rollout_percentage,
        rollout_next_step_at: before.rollout_next_step_at,
      });
      app.clock.advance(1000);
      await publisher.advanceRollouts();
      const after = await target(fx, ulid);
      // The step the answer announced is the step taken.
      expect(after.rollout_percentage).toBe(before.rollout_next_percentage);
      seen.push([after.rollout_percentage, after.rollout_next_percentage]);
      if (after.rollout_status === 'active') expect(after.rollout_next_step_at).toBe(later(await stepStart(ulid), stepMs));
      else expect(after).toMatchObject({ rollout_status: 'completed', ...none });
    }
    expect(seen).toEqual([
      [5, 10],
      [10, 25],
      [25, 50],
      [50, 100],
      [100, null],
    ]);
  });

  it('is null while paused, and one interval after the resume once resumed', async () => {
    const fx = await createFixture(app);
    const ulid = await draft(fx);
    await publish(fx, ulid, { rollout_enabled: true, rollout_mode: 'automatic' });
    const paused = await app.mgmt('PUT', `${fx.base}/targets/${ulid}/rollout`, { action: 'pause' });
    expect(paused.body.data).toMatchObject({ rollout_status: 'paused', ...none });
    app.clock.advance(3 * stepMs);
    const resumed = await app.mgmt('PUT', `${fx.base}/targets/${ulid}/rollout`, { action: 'resume' });
    expect(resumed.body.data).toMatchObject({ rollout_status: 'active', rollout_percentage: 1, rollout_next_percentage: 5 });
    expect(resumed.body.data.rollout_next_step_at).toBe(later(await stepStart(ulid), stepMs));
    expect(new Date(resumed.body.data.rollout_next_step_at).getTime()).toBeGreaterThan(app.clock.now().getTime() + stepMs - 60_000);
  });

  it('is null for manual rollouts, unpublished and scheduled automatic ones, and removed or expired ones', async () => {
    const fx = await createFixture(app);
    const manual = await draft(fx);
    expect(await publish(fx, manual, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 20 })).toMatchObject({
      rollout_status: 'active',
      ...none,
    });
    const removed = await app.mgmt('DELETE', `${fx.base}/targets/${manual}/rollout`);
    expect(removed.body.data).toMatchObject({ rollout_mode: null, ...none });

    // An automatic rollout on a draft, then scheduled: it starts stepping only once published.
    const automatic = await draft(fx);
    const configured = await app.mgmt('POST', `${fx.base}/targets/${automatic}/rollout`, { rollout_mode: 'automatic' });
    expect(configured.status, JSON.stringify(configured.body)).toBe(200);
    expect(await target(fx, automatic)).toMatchObject({ status: 'draft', rollout_mode: 'automatic', rollout_status: 'active', ...none });
    const scheduled = await publish(fx, automatic, { scheduled_at: later(app.clock.now().toISOString(), 60_000) });
    expect(scheduled).toMatchObject({ status: 'scheduled', rollout_mode: 'automatic', ...none });
    app.clock.advance(60_000);
    await publisher.publishDueTargets();
    const live = await target(fx, automatic);
    expect(live).toMatchObject({ status: 'published', rollout_next_percentage: 5 });
    expect(live.rollout_next_step_at).toBe(later(live.published_at, stepMs));

    // A newer publish without a rollout expires it: its rollout is over.
    await publish(fx, await draft(fx), {});
    expect(await target(fx, automatic)).toMatchObject({ status: 'expired', rollout_status: 'completed', ...none });
  });
});
