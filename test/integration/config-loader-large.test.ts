import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { loadEnvironmentConfig } from '../../src/runtime/config-loader.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, type EnvironmentFixture, type FlagFixture } from './public-fixtures.js';

/**
 * A full load of a project larger than one slice of the loader (1,000 flags) compiles it slice
 * by slice: every flag must still come back once, in key order, with its own target and rules.
 */
describeEachDatabase('full environment load of a large project', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let env: EnvironmentFixture;
  const published: FlagFixture[] = [];
  const count = 2_050;
  const keyOf = (i: number) => `large-${String(i).padStart(5, '0')}`;

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    const project = await fx.project();
    env = await fx.environment(project);
    const now = new Date().toISOString();
    const flags = Array.from({ length: count }, (_, i) => ({
      ulid: newId('flag'),
      project_ulid: project.ulid,
      key: keyOf(count - 1 - i), // inserted in reverse key order
      name: `Large ${i}`,
      type: 'string',
      description: null,
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      created_at: now,
      updated_at: now,
    }));
    const values = flags.map((f) => ({
      ulid: newId('flagValue'),
      flag_ulid: f.ulid,
      display: `default of ${f.key}`,
      display_digest: newId('flagValue'),
      is_default: true,
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < flags.length; i += 200) await app.knex('flags').insert(flags.slice(i, i + 200));
    for (let i = 0; i < values.length; i += 200) await app.knex('flag_values').insert(values.slice(i, i + 200));
    // One flag with a published target and a rule in each slice (first, middle, last).
    for (const key of [keyOf(0), keyOf(1_500), keyOf(count - 1)]) {
      const flag = await fx.flag(project, { key: `${key}-ruled`, type: 'string', values: ['on', 'off', 'vip'], defaultValue: 'off' });
      await fx.publish(env, flag, {
        value: 'on',
        rules: [{ value: 'vip', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: [key] }] }],
      });
      published.push(flag);
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('returns every flag once, in key order, each with its own default, target and rules', async () => {
    const loaded = await loadEnvironmentConfig(app.knex, env.ulid);
    const flags = loaded!.config.flags;
    expect(flags).toHaveLength(count + published.length);
    const keys = flags.map((f) => f.key);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
    for (const f of flags.filter((f) => !f.key.endsWith('-ruled'))) {
      expect(f.default).toEqual({ value: `default of ${f.key}` });
      expect(f.serving).toBeNull();
    }
    for (const flag of published) {
      const compiled = flags.find((f) => f.key === flag.key)!;
      const plan = flag.key.replace(/-ruled$/, '');
      expect(compiled.default).toEqual({ value: 'off' });
      expect(compiled.serving).toEqual({
        value: 'on',
        rules: [{ value: 'vip', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: [plan] }] }],
      });
    }
    expect(loaded!.flagUlids.size).toBe(flags.length);
  });
});
