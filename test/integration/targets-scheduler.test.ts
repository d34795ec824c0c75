import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTargetPublisher, type TargetPublisher } from '../../src/features/targets/index.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createFixture, revision, statuses, type Fixture } from './targets-fixture.js';

/**
 * The publisher the scheduler runs (no HTTP request, audit actor `system`), against a real
 * database. A background scheduler task may run the same work concurrently in the test app;
 * assertions are on the resulting state, which must be the same either way.
 */
describeEachDatabase('targets: scheduled publishes and automatic rollouts', (db) => {
  let app: TestApp;
  let publisher: TargetPublisher;
  let another: TargetPublisher;
  const hour = 3_600_000;

  beforeAll(async () => {
    app = await startTestApp(db, { config: { rolloutStepMs: hour } });
    const deps = { ...app.composition.core, auditWriter: app.composition.auditWriter };
    publisher = createTargetPublisher(deps);
    another = createTargetPublisher(deps);
  });
  afterAll(async () => {
    await app?.close();
  });

  const at = (ms: number) => new Date(app.clock.now().getTime() + ms).toISOString();

  async function newTarget(fx: Fixture, publishBody?: Record<string, unknown>): Promise<string> {
    const res = await app.mgmt('POST', `${fx.base}/targets`);
    expect(res.status).toBe(200);
    if (publishBody) {
      const pub = await app.mgmt('PUT', `${fx.base}/targets/${res.body.data.ulid}/publish`, publishBody);
      expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    }
    return res.body.data.ulid;
  }

  it('publishes a due scheduled target exactly once, audited as system, even with two publishers racing', async () => {
    const fx = await createFixture(app);
    const base = await newTarget(fx, {});
    const scheduled = await newTarget(fx, { scheduled_at: at(10 * 60_000), comment: 'at ten' });
    expect((await publisher.publishDueTargets()).published).toBe(0);
    expect((await statuses(app, fx))[scheduled]).toBe('scheduled');

    const rev = await revision(app, fx.envUlid);
    app.clock.advance(10 * 60_000);
    await Promise.all([publisher.publishDueTargets(), another.publishDueTargets(), publisher.publishDueTargets()]);
    expect(await statuses(app, fx)).toEqual({ [base]: 'expired', [scheduled]: 'published' });
    const row = await app.knex('targets').where('ulid', scheduled).first();
    expect(row).toMatchObject({ scheduled_at: null, comment: 'at ten' });
    expect(row.published_at).not.toBeNull();
    expect(await revision(app, fx.envUlid)).toBe(rev + 1);
    const entries = await app.knex('audit_entries').where({ subject_ulid: scheduled, action: 'target.published' }).select('*');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_type: 'system',
      actor_ulid: null,
      token_ulid: null,
      result: 'success',
      subject_type: 'target',
    });
    const listed = await app.mgmt('GET', `/audit-logs?subject_ulid=${scheduled}&action=target.published`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      actor: { type: 'system', ulid: null },
      token: null,
      http_method: null,
      http_path: null,
      status_code: null,
    });
  });

  it('a scheduled publish refused by a rollout in progress stays scheduled and is audited once', async () => {
    const fx = await createFixture(app);
    await newTarget(fx, {});
    await newTarget(fx, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
    const scheduled = await newTarget(fx, {
      scheduled_at: at(60_000),
      rollout_enabled: true,
      rollout_mode: 'automatic',
    });
    app.clock.advance(60_000);
    // Two ticks at once (two instances), then a later one: one entry.
    await Promise.all([publisher.publishDueTargets(), publisher.publishDueTargets()]);
    await publisher.publishDueTargets();
    expect((await statuses(app, fx))[scheduled]).toBe('scheduled');
    const failures = await app.knex('audit_entries').where({ subject_ulid: scheduled, actor_type: 'system' }).select('action', 'result');
    expect(failures).toEqual([{ action: 'target.published', result: 'invalid' }]);
    // Cancelling it still works.
    expect((await app.mgmt('DELETE', `${fx.base}/targets/${scheduled}`)).status).toBe(200);
  });

  it('advances an automatic rollout 1, 5, 10, 25, 50, 100 % one step per interval, then completes it', async () => {
    const fx = await createFixture(app);
    const base = await newTarget(fx, {});
    const t = await newTarget(fx, { rollout_enabled: true, rollout_mode: 'automatic' });
    const percentage = async () => Number((await app.knex('targets').where('ulid', t).first('rollout_percentage')).rollout_percentage);
    expect(await percentage()).toBe(1);

    await publisher.advanceRollouts();
    expect(await percentage()).toBe(1);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const rev = await revision(app, fx.envUlid);
      app.clock.advance(hour);
      await Promise.all([publisher.advanceRollouts(), another.advanceRollouts()]);
      seen.push(await percentage());
      // One step per interval, whichever publisher took it.
      expect(await revision(app, fx.envUlid)).toBe(rev + 1);
    }
    expect(seen).toEqual([5, 10, 25, 50, 100]);
    const row = await app.knex('targets').where('ulid', t).first();
    expect(row).toMatchObject({ rollout_status: 'completed', status: 'published' });
    expect(await statuses(app, fx)).toEqual({ [base]: 'expired', [t]: 'published' });
    const actions = await app.knex('audit_entries').where({ subject_ulid: t, actor_type: 'system' }).orderBy('ulid').pluck('action');
    expect(actions).toEqual([
      'target.rollout_updated',
      'target.rollout_updated',
      'target.rollout_updated',
      'target.rollout_updated',
      'target.rollout_completed',
    ]);
  });

  it('a paused automatic rollout does not advance', async () => {
    const fx = await createFixture(app);
    const t = await newTarget(fx, { rollout_enabled: true, rollout_mode: 'automatic' });
    expect((await app.mgmt('PUT', `${fx.base}/targets/${t}/rollout`, { action: 'pause' })).status).toBe(200);
    app.clock.advance(3 * hour);
    await publisher.advanceRollouts();
    expect(await app.knex('targets').where('ulid', t).first('rollout_percentage', 'rollout_status')).toMatchObject({
      rollout_status: 'paused',
    });
    expect(Number((await app.knex('targets').where('ulid', t).first('rollout_percentage')).rollout_percentage)).toBe(1);
    expect((await app.mgmt('PUT', `${fx.base}/targets/${t}/rollout`, { action: 'resume' })).status).toBe(200);
    app.clock.advance(hour);
    await publisher.advanceRollouts();
    expect(Number((await app.knex('targets').where('ulid', t).first('rollout_percentage')).rollout_percentage)).toBe(5);
  });
});
