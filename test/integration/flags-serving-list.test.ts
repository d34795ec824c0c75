import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describeEachDatabase('flags list with include=serving', (db) => {
  let app: TestApp;
  const projectKey = `overview-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Overview',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    await ok('POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    await ok('POST', `${p}/flags`, { key: 'empty', name: 'Empty', type: 'string' });
    await ok('POST', `${p}/flags`, { key: 'kept', name: 'Kept', type: 'boolean' });
    await ok('PUT', `${p}/flags/kept`, { name: 'Kept', permanent: true });
    await ok('POST', `${p}/flags/checkout/environments/production/serve`, { value: 'true' });
    const draft = await ok('POST', `${p}/flags/checkout/environments/staging/targets`);
    await ok('PUT', `${p}/flags/checkout/environments/staging/targets/${draft.ulid}/publish`, {
      rollout_enabled: true,
      rollout_mode: 'manual',
      rollout_percentage: 40,
    });
    await ok('POST', `${p}/flags/checkout/environments/production/targets`);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows each flag per environment, its last use and whether it is stale', async () => {
    // Every flag is new: nothing is stale before its creation is older than stale_days.
    const fresh = await app.mgmt('GET', `${p}/flags?include=serving`);
    expect(fresh.status).toBe(200);
    const byKey = Object.fromEntries(fresh.body.data.map((f: { key: string }) => [f.key, f]));
    expect(byKey.checkout.environments).toEqual([
      {
        environment_key: 'staging',
        value: 'false',
        served_by: 'target',
        // A rollout in progress counts as on, whatever its values.
        on: true,
        rules_count: 0,
        published_at: expect.any(String),
        rollout_percentage: 40,
        rollout_status: 'active',
        draft: false,
        scheduled_at: null,
      },
      {
        environment_key: 'production',
        value: 'true',
        served_by: 'target',
        on: true,
        rules_count: 0,
        published_at: expect.any(String),
        rollout_percentage: null,
        rollout_status: null,
        draft: true,
        scheduled_at: null,
      },
    ]);
    expect(byKey.empty.environments[0]).toMatchObject({ value: null, served_by: 'unavailable' });
    expect(byKey.kept.environments[1]).toMatchObject({ value: 'false', served_by: 'default', on: false, published_at: null });
    expect(fresh.body.data.map((f: { stale: boolean }) => f.stale)).toEqual([false, false, false]);

    app.clock.advance(31 * 86_400_000);
    const later = await app.mgmt('GET', `${p}/flags?include=serving&stale_days=30`);
    expect(later.body.data.map((f: { key: string; stale: boolean }) => [f.key, f.stale])).toEqual([
      ['checkout', true],
      ['empty', true],
      ['kept', false],
    ]);
    // Without include, the list is as it always was.
    const plain = await app.mgmt('GET', `${p}/flags`);
    expect(plain.body.data[0]).not.toHaveProperty('environments');
  });
});
