import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures } from './public-fixtures.js';

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
        serves: 'value',
        // A rollout in progress counts as on, whatever its values.
        on: true,
        rules_count: 0,
        published_at: expect.any(String),
        rollout_percentage: 40,
        rollout_status: 'active',
        draft: false,
        scheduled_at: null,
        evaluations_24h: 0,
      },
      {
        environment_key: 'production',
        value: 'true',
        served_by: 'target',
        serves: 'value',
        on: true,
        rules_count: 0,
        published_at: expect.any(String),
        rollout_percentage: null,
        rollout_status: null,
        draft: true,
        scheduled_at: null,
        evaluations_24h: 0,
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
  it('filters by what flags serve: on or off in an environment, and stale', async () => {
    const keys = async (query: string) => {
      const res = await app.mgmt('GET', `${p}/flags?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((f: { key: string }) => f.key);
    };
    expect(await keys('on=production')).toEqual(['checkout']);
    expect(await keys('off=production')).toEqual(['empty', 'kept']);
    expect(await keys('on=staging&off=production')).toEqual([]);
    expect(await keys('type=string&off=staging')).toEqual(['empty']);
    // The clock stands 31 days after the flags' creation (the test above).
    expect(await keys('stale=true')).toEqual(['checkout', 'empty']);
    expect(await keys('stale=false')).toEqual(['kept']);
    expect(await keys('stale=true&stale_days=60')).toEqual([]);

    // The filtered flags carry their state with include=serving, as the unfiltered list does.
    const served = await app.mgmt('GET', `${p}/flags?on=production&include=serving`);
    expect(served.body.data[0].environments[1]).toMatchObject({ environment_key: 'production', on: true });
    expect((await app.mgmt('GET', `${p}/flags?on=production`)).body.data[0]).not.toHaveProperty('environments');
  });

  it('pages a filtered list by the flags it shows, both ways', async () => {
    const first = await app.mgmt('GET', `${p}/flags?off=production&per_page=1`);
    expect(first.body.data.map((f: { key: string }) => f.key)).toEqual(['empty']);
    expect(first.body.meta.prev_cursor).toBeNull();
    const second = await app.mgmt('GET', `${p}/flags?off=production&per_page=1&cursor=${first.body.meta.next_cursor}`);
    expect(second.body.data.map((f: { key: string }) => f.key)).toEqual(['kept']);
    expect(second.body.meta.next_cursor).toBeNull();
    const back = await app.mgmt('GET', `${p}/flags?off=production&per_page=1&cursor=${second.body.meta.prev_cursor}`);
    expect(back.body.data.map((f: { key: string }) => f.key)).toEqual(['empty']);
    // checkout, before empty, is on in production: there is nothing further back.
    expect(back.body.meta.prev_cursor).toBeNull();
    expect(back.body.meta.next_cursor).not.toBeNull();
  });

  it('refuses an environment the project does not have (a reference), or not an environment key (the query)', async () => {
    for (const query of ['on=nowhere', 'off=nowhere']) {
      const res = await app.mgmt('GET', `${p}/flags?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.code, query).toBe('reference_not_found');
    }
    for (const query of ['on=Not%20a%20key', 'stale=maybe']) {
      const res = await app.mgmt('GET', `${p}/flags?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.code, query).toBe('invalid_query');
    }
  });
});

describeEachDatabase('flags list with include=serving: how each flag serves, its last evaluation', (db) => {
  let app: TestApp;
  const projectKey = `serves-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const targets = (flag: string) => `${p}/flags/${flag}/environments/production/targets`;

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok('POST', '/projects', { key: projectKey, name: 'Serves', environments: [{ key: 'production', name: 'Production' }] });
    await ok('POST', `${p}/segments`, { key: 'beta', name: 'Beta', included: ['u-beta'] });
    const values: Record<string, Record<string, string>> = {};
    for (const flag of ['ruled', 'shared', 'single']) {
      await ok('POST', `${p}/flags`, { key: flag, name: flag, type: 'string' });
      values[flag] = {};
      for (const display of ['a', 'b']) values[flag]![display] = (await ok('POST', `${p}/flags/${flag}/values`, { display })).ulid;
    }
    const ruled = await ok('POST', targets('ruled'));
    await ok('POST', `${targets('ruled')}/${ruled.ulid}/rules`, {
      value_ulid: values.ruled!.b,
      description: 'Beta',
      criteria: [{ selector: 'segment', comparer: 'equal', values: ['beta'] }],
    });
    await ok('PUT', `${targets('ruled')}/${ruled.ulid}/publish`, {});
    const shared = await ok('POST', targets('shared'));
    await ok('PUT', `${targets('shared')}/${shared.ulid}`, {
      split: {
        shares: [
          { value_ulid: values.shared!.a, weight: 50000 },
          { value_ulid: values.shared!.b, weight: 50000 },
        ],
      },
    });
    await ok('PUT', `${targets('shared')}/${shared.ulid}/publish`, {});
    await ok('POST', `${p}/flags/single/environments/production/serve`, { value: values.single!.b });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('says whether rules or a split choose the value, and when the flag was last evaluated beside its last reported use', async () => {
    const key = (await ok('POST', `${p}/environments/production/keys`, { kind: 'server' })).key as string;
    const evaluated = await app.request('GET', '/v1/flags/single', { apiKey: key });
    expect(evaluated.status).toBe(200);
    await new Fixtures(app).flushTelemetry();
    const res = await app.mgmt('GET', `${p}/flags?include=serving`);
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(
      res.body.data.map(
        (f: { key: string; environments: Array<{ serves: string }>; last_used_at: string | null; last_evaluated_at: string | null }) => [
          f.key,
          { serves: f.environments[0]?.serves, last_used_at: f.last_used_at, evaluated: f.last_evaluated_at !== null },
        ],
      ),
    );
    expect(byKey).toEqual({
      ruled: { serves: 'rules', last_used_at: null, evaluated: false },
      shared: { serves: 'split', last_used_at: null, evaluated: false },
      single: { serves: 'value', last_used_at: null, evaluated: true },
    });
    // The flag page's read answers the same.
    const single = await ok('GET', `${p}/flags/single?include=serving`);
    expect(Date.parse(single.last_evaluated_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});
