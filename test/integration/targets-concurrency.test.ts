import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createFixture, revision, statuses, type Fixture } from './targets-fixture.js';

/** Real concurrency: many requests in flight at once against one server (and its pool). */
describeEachDatabase('targets under concurrent publishes', (db) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function drafts(fx: Fixture, n: number): Promise<string[]> {
    const ulids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await app.mgmt('POST', `${fx.base}/targets`);
      expect(res.status).toBe(200);
      ulids.push(res.body.data.ulid);
    }
    return ulids;
  }

  async function publishBase(fx: Fixture): Promise<string> {
    const [base] = await drafts(fx, 1);
    expect((await app.mgmt('PUT', `${fx.base}/targets/${base}/publish`, {})).status).toBe(200);
    return base as string;
  }

  it('ten publishes of ten drafts at once leave exactly one published target and a consistent history', async () => {
    const fx = await createFixture(app);
    const base = await publishBase(fx);
    for (let round = 0; round < 3; round++) {
      const previous = await statuses(app, fx);
      const ulids = await drafts(fx, 10);
      const rev = await revision(app, fx.envUlid);
      const results = await Promise.all(ulids.map((u) => app.mgmt('PUT', `${fx.base}/targets/${u}/publish`, { comment: `c${u}` })));
      const succeeded = results.filter((r) => r.status === 200);
      for (const r of results) expect([200, 422], JSON.stringify(r.body)).toContain(r.status);
      expect(succeeded).toHaveLength(10);

      const after = await statuses(app, fx);
      const published = Object.entries(after).filter(([, s]) => s === 'published');
      expect(published).toHaveLength(1);
      // Every target that was ever published and is not the serving one is expired.
      for (const ulid of [...Object.keys(previous), ...ulids]) {
        if (ulid !== published[0]?.[0]) expect(after[ulid], ulid).toBe('expired');
      }
      expect(after[base]).toBe('expired');
      expect(await revision(app, fx.envUlid)).toBe(rev + succeeded.length);

      // History: distinct publish times, the serving target is the last one published.
      const rows = await app
        .knex('targets')
        .whereIn('ulid', ulids)
        .orderBy([{ column: 'published_at', order: 'desc' }])
        .select('ulid', 'published_at', 'status');
      expect(new Set(rows.map((r: { published_at: string }) => r.published_at)).size).toBe(10);
      expect(rows[0].status).toBe('published');
      const audits = await app
        .knex('audit_entries')
        .whereIn('subject_ulid', ulids)
        .where({ action: 'target.published', result: 'success' })
        .count({ n: '*' })
        .first();
      expect(Number(audits?.n)).toBe(10);
    }
  });

  it('ten publishes with rollouts at once: one wins, the others are refused and change nothing', async () => {
    const fx = await createFixture(app);
    const base = await publishBase(fx);
    const ulids = await drafts(fx, 10);
    const rev = await revision(app, fx.envUlid);
    const results = await Promise.all(
      ulids.map((u) =>
        app.mgmt('PUT', `${fx.base}/targets/${u}/publish`, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 20 }),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ status: 'error', message: expect.stringMatching(/in progress/), code: expect.any(String) });
    }
    const winner = winners[0]?.body.data.ulid as string;
    const after = await statuses(app, fx);
    expect(after[base]).toBe('published');
    expect(after[winner]).toBe('published');
    expect(Object.values(after).filter((s) => s === 'published')).toHaveLength(2);
    expect(Object.values(after).filter((s) => s === 'draft')).toHaveLength(9);
    expect(await revision(app, fx.envUlid)).toBe(rev + 1);
  });

  it('racing publish and delete of the same draft: exactly one of them happens', async () => {
    const fx = await createFixture(app);
    for (let i = 0; i < 5; i++) {
      const [d] = await drafts(fx, 1);
      const rev = await revision(app, fx.envUlid);
      const [pub, del] = await Promise.all([
        app.mgmt('PUT', `${fx.base}/targets/${d}/publish`, {}),
        app.mgmt('DELETE', `${fx.base}/targets/${d}`),
      ]);
      const row = await app.knex('targets').where('ulid', d).first('status');
      if (pub.status === 200) {
        expect(del.status).toBe(422);
        expect(row.status).toBe('published');
        expect(await revision(app, fx.envUlid)).toBe(rev + 1);
      } else {
        expect(del.status).toBe(200);
        expect([404, 422]).toContain(pub.status);
        expect(row).toBeUndefined();
        expect(await revision(app, fx.envUlid)).toBe(rev);
      }
    }
  });

  it('racing complete, delete-rollout and pause of one rollout leave a consistent target', async () => {
    const fx = await createFixture(app);
    const base = await publishBase(fx);
    const [d] = await drafts(fx, 1);
    await app.mgmt('PUT', `${fx.base}/targets/${d}/publish`, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
    const [complete, remove, pause] = await Promise.all([
      app.mgmt('POST', `${fx.base}/targets/${d}/rollout/complete`),
      app.mgmt('DELETE', `${fx.base}/targets/${d}/rollout`),
      app.mgmt('PUT', `${fx.base}/targets/${d}/rollout`, { action: 'pause' }),
    ]);
    for (const r of [complete, remove, pause]) expect([200, 422]).toContain(r.status);
    const row = await app.knex('targets').where('ulid', d).first();
    expect(row.status).toBe('published');
    if (remove.status === 200) {
      expect(row.rollout_mode).toBeNull();
    } else {
      expect(complete.status).toBe(200);
      expect(row).toMatchObject({ rollout_status: 'completed' });
      expect(Number(row.rollout_percentage)).toBe(100);
    }
    // Both ways the rollout ended, so the base target is expired.
    expect((await statuses(app, fx))[base]).toBe('expired');
  });
});
