import { afterAll, beforeAll, expect, it } from 'vitest';
import { up as expiredRolloutsMigration } from '../../db/migrations/0006_expired_rollouts.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { createFixture, type Fixture } from './targets-fixture.js';

/** An expired target's rollout is over: `completed`, never `active` or `paused` (specs/management.yaml). */
describeEachDatabase('the rollout of an expired target', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function ok(res: Promise<ApiResponse>): Promise<any> {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  }

  /** A published target with a manual rollout at 25 %, `paused` when asked. */
  async function rollingOut(fx: Fixture, paused: boolean): Promise<string> {
    const draft = (await ok(app.mgmt('POST', `${fx.base}/targets`))).ulid as string;
    await ok(app.mgmt('PUT', `${fx.base}/targets/${draft}`, { value_ulid: fx.trueValue }));
    await ok(app.mgmt('POST', `${fx.base}/targets/${draft}/rollout`, { rollout_mode: 'manual', rollout_percentage: 25 }));
    await ok(app.mgmt('PUT', `${fx.base}/targets/${draft}/publish`, {}));
    if (paused) await ok(app.mgmt('PUT', `${fx.base}/targets/${draft}/rollout`, { action: 'pause' }));
    return draft;
  }

  it.each([false, true])('is completed once a newer publish expires the target (paused: %s)', async (paused) => {
    const fx = await createFixture(app);
    const target = await rollingOut(fx, paused);
    expect(await ok(app.mgmt('GET', `${fx.base}/targets/${target}`))).toMatchObject({
      status: 'published',
      rollout_status: paused ? 'paused' : 'active',
    });
    await ok(app.mgmt('PUT', `${fx.base}/targets/${(await ok(app.mgmt('POST', `${fx.base}/targets`))).ulid}/publish`, {}));
    expect(await ok(app.mgmt('GET', `${fx.base}/targets/${target}`))).toMatchObject({
      status: 'expired',
      rollout_status: 'completed',
      rollout_mode: 'manual',
      rollout_percentage: 25,
    });
    const listed = await ok(app.mgmt('GET', `${fx.base}/targets`));
    expect(listed.filter((t: { rollout_status: string }) => t.rollout_status === 'active' || t.rollout_status === 'paused')).toEqual([]);
  });

  it('is completed for targets expired before the change (migration 0006)', async () => {
    const fx = await createFixture(app);
    const target = await rollingOut(fx, false);
    const untouched = await rollingOut(await createFixture(app), false);
    // What older versions left behind: expired, rollout still active.
    await app.knex('targets').where('ulid', target).update({ status: 'expired' });
    await expiredRolloutsMigration(app.knex);
    expect(await app.knex('targets').where('ulid', target).first('status', 'rollout_status')).toEqual({
      status: 'expired',
      rollout_status: 'completed',
    });
    expect(await app.knex('targets').where('ulid', untouched).first('status', 'rollout_status')).toEqual({
      status: 'published',
      rollout_status: 'active',
    });
  });
});
