import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The kill switch and restore on flags that use splits and prerequisites: a split whose base value
 * is the off value is still on (some contexts get another value), so the switch turns it off; a
 * flag requiring another flag switches back on and restores (the required flag's values are its own).
 */
describeEachDatabase('switch and restore with splits and prerequisites', (db) => {
  let app: TestApp;
  const projectKey = `killswitch-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const evaluate = async (flag: string, identifier: string) =>
    ok(
      'GET',
      `${p}/flags/${flag}/environments/production/evaluate?context=${encodeURIComponent(JSON.stringify({ type: 'user', identifier }))}`,
    );
  const stateOf = async (flag: string) =>
    (await ok('GET', `${p}/flags/${flag}?include=serving`)).environments.find(
      (e: { environment_key: string }) => e.environment_key === 'production',
    );
  const listed = async (filter: string) => ((await ok('GET', `${p}/flags?${filter}`)) as Array<{ key: string }>).map((f) => f.key);
  const flag = (key: string, type: string, values: Array<[string, boolean]>, production: unknown) => ({
    key,
    name: key,
    type,
    description: null,
    permanent: false,
    include_in_mobile: true,
    include_in_client: true,
    values: values.map(([value, isDefault]) => ({ value, default: isDefault })),
    environments: { production },
  });

  beforeAll(async () => {
    app = await startTestApp(db);
    const file = {
      version: 1,
      project: { key: projectKey, name: 'Kill switch', description: '' },
      environments: [
        {
          key: 'production',
          name: 'Production',
          description: null,
          color: '#d93025',
          comments_required: false,
          confirmation_required: false,
        },
      ],
      segments: [],
      flags: [
        flag(
          'hero',
          'string',
          [
            ['red', true],
            ['green', false],
            ['blue', false],
          ],
          {
            value: 'red',
            split: {
              shares: [
                { value: 'red', weight: 50000 },
                { value: 'green', weight: 30000 },
                { value: 'blue', weight: 20000 },
              ],
            },
            rules: [],
            rollout: null,
          },
        ),
        flag(
          'checkout',
          'boolean',
          [
            ['true', false],
            ['false', true],
          ],
          { value: 'true', rules: [], rollout: null },
        ),
        flag(
          'banner',
          'string',
          [
            ['off', true],
            ['on', false],
          ],
          { value: 'on', rules: [], prerequisites: [{ flag: 'checkout', values: ['true'] }], rollout: null },
        ),
        flag(
          'gate',
          'string',
          [
            ['a', true],
            ['b', false],
          ],
          { value: 'b', rules: [], rollout: null },
        ),
        flag(
          'notify',
          'boolean',
          [
            ['true', true],
            ['false', false],
          ],
          { value: 'false', rules: [], prerequisites: [{ flag: 'gate', values: ['a'] }], rollout: null },
        ),
      ],
    };
    const applied = await app.mgmt('POST', `${p}/configuration/apply`, file);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('counts a split that serves other values as on, and the switch turns it off for every context', async () => {
    const users = Array.from({ length: 40 }, (_, i) => `u${i}`);
    const before = await Promise.all(users.map((u) => evaluate('hero', u)));
    expect(before.map((o) => o.value)).toContain('green');
    expect(await stateOf('hero')).toMatchObject({ on: true, value: 'red' });
    expect(await listed('on=production')).toContain('hero');
    expect(await listed('off=production')).not.toContain('hero');

    const off = await ok('POST', `${p}/flags/hero/environments/production/switch`, { on: false });
    expect(off).toMatchObject({ on: false, value: 'red' });
    for (const outcome of await Promise.all(users.map((u) => evaluate('hero', u)))) expect(outcome.value).toBe('red');
    expect(await listed('off=production')).toContain('hero');

    // Back on: every context gets what it got before.
    expect(await ok('POST', `${p}/flags/hero/environments/production/switch`, { on: true })).toMatchObject({ on: true });
    const after = await Promise.all(users.map((u) => evaluate('hero', u)));
    expect(after.map((o) => o.value)).toEqual(before.map((o) => o.value));
  });

  it('switches a flag with a prerequisite off, back on, and restores its earlier publish', async () => {
    expect((await evaluate('banner', 'u1')).value).toBe('on');
    const history = (await ok('GET', `${p}/flags/banner/environments/production/targets`)) as Array<{ ulid: string; status: string }>;
    const first = history.find((t) => t.status === 'published')!;
    expect(await ok('POST', `${p}/flags/banner/environments/production/switch`, { on: false })).toMatchObject({ on: false, value: 'off' });
    expect((await evaluate('banner', 'u1')).value).toBe('off');
    expect(await ok('POST', `${p}/flags/banner/environments/production/switch`, { on: true })).toMatchObject({ on: true, value: 'on' });
    expect((await evaluate('banner', 'u1')).value).toBe('on');

    await ok('POST', `${p}/flags/banner/environments/production/switch`, { on: false });
    const restored = await ok('POST', `${p}/flags/banner/environments/production/targets/${first.ulid}/restore`, {});
    expect(restored).toMatchObject({ status: 'published' });
    const prerequisites = await ok('GET', `${p}/flags/banner/environments/production/targets/${restored.ulid}/prerequisites`);
    expect(JSON.stringify(prerequisites)).toContain('checkout');
    expect((await evaluate('banner', 'u1')).value).toBe('on');
  });

  it('counts a boolean flag whose prerequisite can fail into a true default as on, and the switch clears it', async () => {
    // notify (default true) serves false to everyone but requires gate = a; gate serves b, so the
    // prerequisite fails and everyone gets the default, true.
    expect((await evaluate('notify', 'u1')).value).toBe(true);
    expect(await stateOf('notify')).toMatchObject({ on: true, value: 'false' });
    expect(await ok('POST', `${p}/flags/notify/environments/production/switch`, { on: false })).toMatchObject({ on: false });
    expect((await evaluate('notify', 'u1')).value).toBe(false);
  });
});
