import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  Fixtures,
  contextHeader,
  sleep,
  waitFor,
  type EnvironmentFixture,
  type FlagFixture,
  type ProjectFixture,
} from './public-fixtures.js';

const invalidKey = { status: 'error', message: 'Invalid API key provided.', code: expect.stringMatching(/^(invalid|missing)_api_key$/) };
const invalidContext = { status: 'error', message: 'Context was supplied but is invalid.', code: 'bad_request' };
const invalidDefaults = { status: 'error', message: 'Default values were supplied but are invalid.', code: 'bad_request' };
const notFound = { status: 'error', message: 'Feature flag not found.', code: 'not_found' };

describeEachDatabase('public evaluation API: GET /v1/flags and /v1/flags/{flagKey}', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let mobileKey: string;
  let clientKey: string;
  let flags: Record<string, FlagFixture>;

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    ({ project, env, mobileKey, clientKey } = await fx.keyedEnvironment('production'));
    flags = {
      // boolean: published true, a rule serving false for country DE
      checkout: await fx.flag(project, { key: 'checkout', type: 'boolean', name: 'New checkout' }),
      // number: only a default value (no published target)
      limit: await fx.flag(project, { key: 'limit', type: 'number', values: ['50', '10.5'], defaultValue: '50' }),
      // string: published target, segment rule
      banner: await fx.flag(project, { key: 'banner', type: 'string', values: ['Welcome', 'Hello beta'], defaultValue: 'Welcome' }),
      // json: nested value published
      theme: await fx.flag(project, {
        key: 'theme',
        type: 'json',
        values: ['{"dense":false,"palette":{"primary":"#0055ff","levels":[1,2,{"deep":null}]}}', '[]'],
      }),
      // unavailable: no values at all
      empty: await fx.flag(project, { key: 'empty', type: 'string', values: [], defaultValue: null }),
    };
    const beta = await fx.segment(project, { key: 'beta', included: ['user-7'], rules: [] });
    await fx.publish(env, flags.checkout!, {
      value: 'true',
      rules: [{ value: 'false', criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'in', values: ['DE', 'FR'] }] }],
    });
    await fx.publish(env, flags.banner!, {
      value: 'Welcome',
      rules: [{ value: 'Hello beta', criteria: [{ selector: 'segment', comparer: 'in', values: [beta] }] }],
    });
    await fx.publish(env, flags.theme!, { value: '{"dense":false,"palette":{"primary":"#0055ff","levels":[1,2,{"deep":null}]}}' });
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('evaluates every flag, ordered by key, with the value keyed by the type; unavailable flags left out', async () => {
    const res = await app.request('GET', '/v1/flags', { apiKey: env.serverKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: [
        { flag: { key: 'banner', name: 'Flag banner', type: 'string', value: { string: 'Welcome' } } },
        { flag: { key: 'checkout', name: 'New checkout', type: 'boolean', value: { boolean: true } } },
        { flag: { key: 'limit', name: 'Flag limit', type: 'number', value: { number: 50 } } },
        {
          flag: {
            key: 'theme',
            name: 'Flag theme',
            type: 'json',
            value: { json: { dense: false, palette: { primary: '#0055ff', levels: [1, 2, { deep: null }] } } },
          },
        },
      ],
    });
  });

  it('evaluates one flag of each type', async () => {
    const cases: Array<[string, unknown]> = [
      ['checkout', { boolean: true }],
      ['limit', { number: 50 }],
      ['banner', { string: 'Welcome' }],
      ['theme', { json: { dense: false, palette: { primary: '#0055ff', levels: [1, 2, { deep: null }] } } }],
    ];
    for (const [key, value] of cases) {
      const res = await app.request('GET', `/v1/flags/${key}`, { apiKey: env.serverKey });
      expect(res.status, key).toBe(200);
      expect(res.body.status).toBe('success');
      expect(res.body.data.flag.key).toBe(key);
      expect(res.body.data.flag.value).toEqual(value);
    }
  });

  it('applies rules for the context (attribute and segment selectors)', async () => {
    const de = contextHeader({ type: 'user', identifier: 'user-1', attributes: [{ key: 'country', values: [{ value: 'DE' }] }] });
    const res = await app.request('GET', '/v1/flags/checkout', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': de } });
    expect(res.body.data.flag.value).toEqual({ boolean: false });
    const member = contextHeader({ type: 'user', identifier: 'user-7' });
    const seg = await app.request('GET', '/v1/flags/banner', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': member } });
    expect(seg.body.data.flag.value).toEqual({ string: 'Hello beta' });
    const list = await app.request('GET', '/v1/flags', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': de } });
    expect(list.body.data.find((f: { flag: { key: string } }) => f.flag.key === 'checkout').flag.value).toEqual({ boolean: false });
  });

  it('accepts every key header alias; the canonical header wins', async () => {
    for (const header of ['X-VEXIL-API-KEY', 'X-API-KEY', 'X-VEXIL-KEY']) {
      const res = await app.request('GET', '/v1/flags/checkout', { headers: { [header]: env.serverKey } });
      expect(res.status, header).toBe(200);
    }
    const both = await app.request('GET', '/v1/flags/checkout', {
      headers: { 'X-VEXIL-API-KEY': env.serverKey, 'X-API-KEY': 'srv_' + 'x'.repeat(40) },
    });
    expect(both.status).toBe(200);
    const wrongFirst = await app.request('GET', '/v1/flags/checkout', {
      headers: { 'X-VEXIL-API-KEY': 'srv_' + 'x'.repeat(40), 'X-API-KEY': env.serverKey },
    });
    expect(wrongFirst.status).toBe(401);
  });

  it('reads the context from X-VEXIL-CONTEXT or its alias C; the canonical header wins; empty means absent', async () => {
    const de = contextHeader({ type: 'user', identifier: 'u', attributes: [{ key: 'country', values: [{ value: 'DE' }] }] });
    const us = contextHeader({ type: 'user', identifier: 'u', attributes: [{ key: 'country', values: [{ value: 'US' }] }] });
    const alias = await app.request('GET', '/v1/flags/checkout', { apiKey: env.serverKey, headers: { C: de } });
    expect(alias.body.data.flag.value).toEqual({ boolean: false });
    const both = await app.request('GET', '/v1/flags/checkout', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': us, C: de } });
    expect(both.body.data.flag.value).toEqual({ boolean: true });
    const emptyCanonical = await app.request('GET', '/v1/flags/checkout', {
      apiKey: env.serverKey,
      headers: { 'X-VEXIL-CONTEXT': '', C: de },
    });
    expect(emptyCanonical.body.data.flag.value).toEqual({ boolean: false });
    // Every header sent is checked, even an alias whose value the canonical header overrides.
    const brokenAlias = await app.request('GET', '/v1/flags/checkout', {
      apiKey: env.serverKey,
      headers: { 'X-VEXIL-CONTEXT': us, C: '{' },
    });
    expect(brokenAlias.status).toBe(400);
    expect(brokenAlias.body).toEqual(invalidContext);
  });

  it('refuses an undecodable or invalid context with 400', async () => {
    const bad = [
      '{not json',
      '[]',
      '"user"',
      JSON.stringify({ type: 'user' }),
      JSON.stringify({ identifier: 'u' }),
      JSON.stringify({ type: '', identifier: 'u' }),
      JSON.stringify({ type: 'user', identifier: '' }),
      JSON.stringify({ type: 'user', identifier: 'u', extra: 1 }),
      JSON.stringify({ type: 'user', identifier: 'u', attributes: [{ key: 'a', values: ['x'] }] }),
      JSON.stringify({ type: 'user', identifier: 'u', attributes: [{ key: 'a', values: [{ value: 1 }] }] }),
      JSON.stringify({ type: 'user', identifier: 'u', attributes: [{ key: '', values: [] }] }),
      JSON.stringify({ type: 'x'.repeat(201), identifier: 'u' }),
      JSON.stringify({ type: 'user', identifier: 'x'.repeat(1001) }),
      JSON.stringify({ type: 'user', identifier: 'u', name: 5 }),
    ];
    for (const value of bad) {
      for (const header of ['X-VEXIL-CONTEXT', 'C']) {
        for (const path of ['/v1/flags', '/v1/flags/checkout']) {
          const res = await app.request('GET', path, { apiKey: env.serverKey, headers: { [header]: value } });
          expect(res.status, `${header}: ${value}`).toBe(400);
          expect(res.body).toEqual(invalidContext);
        }
      }
    }
  });

  it("accepts 40 KB of headers (above Node's 16 KB default) and answers 431 without a body beyond 64 KB", async () => {
    // Attribute values of 1,000 characters: about 1 KB of header text each.
    const context = (kilobytes: number) =>
      contextHeader({
        type: 'user',
        identifier: 'u',
        attributes: Array.from({ length: kilobytes / 20 }, (_, i) => ({
          key: `k${i}`,
          values: Array.from({ length: 20 }, () => ({ value: 'x'.repeat(1000) })),
        })),
      });
    const forty = context(40);
    expect(forty.length).toBeGreaterThan(40_000);
    const accepted = await app.request('GET', '/v1/flags/checkout', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': forty } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.flag.value).toEqual({ boolean: true });
    const tooLarge = context(80);
    expect(tooLarge.length).toBeGreaterThan(65_536);
    const res = await app.request('GET', '/v1/flags', { apiKey: env.serverKey, headers: { 'X-VEXIL-CONTEXT': tooLarge } });
    expect(res.status).toBe(431);
    expect(res.body).toBe('');
  });

  it('serves a declared default for an unavailable flag, from every default-value header alias', async () => {
    const declared = (value: string) => JSON.stringify([{ key: 'empty', type: 'string', value }]);
    for (const header of ['X-VEXIL-DEFAULT-VALUE', 'X-DEFAULT-VALUE', 'D']) {
      const one = await app.request('GET', '/v1/flags/empty', { apiKey: env.serverKey, headers: { [header]: declared(header) } });
      expect(one.status, header).toBe(200);
      expect(one.body.data.flag).toEqual({ key: 'empty', name: 'Flag empty', type: 'string', value: { string: header } });
      const list = await app.request('GET', '/v1/flags', { apiKey: env.serverKey, headers: { [header]: declared(header) } });
      expect(list.body.data.map((f: { flag: { key: string } }) => f.flag.key)).toEqual(['banner', 'checkout', 'empty', 'limit', 'theme']);
    }
    // Precedence: X-VEXIL-DEFAULT-VALUE, then X-DEFAULT-VALUE, then D.
    const all = await app.request('GET', '/v1/flags/empty', {
      apiKey: env.serverKey,
      headers: { 'X-VEXIL-DEFAULT-VALUE': declared('canonical'), 'X-DEFAULT-VALUE': declared('alias'), D: declared('short') },
    });
    expect(all.body.data.flag.value).toEqual({ string: 'canonical' });
    const two = await app.request('GET', '/v1/flags/empty', {
      apiKey: env.serverKey,
      headers: { 'X-DEFAULT-VALUE': declared('alias'), D: declared('short') },
    });
    expect(two.body.data.flag.value).toEqual({ string: 'alias' });
    const brokenShort = await app.request('GET', '/v1/flags/empty', {
      apiKey: env.serverKey,
      headers: { 'X-VEXIL-DEFAULT-VALUE': declared('canonical'), D: '[{"key":"empty"}]' },
    });
    expect(brokenShort.status).toBe(400);
    expect(brokenShort.body).toEqual(invalidDefaults);
    // A declaration of another type is not served; a flag with a value ignores declarations.
    const wrongType = await app.request('GET', '/v1/flags/empty', {
      apiKey: env.serverKey,
      headers: { D: JSON.stringify([{ key: 'empty', type: 'number', value: 3 }]) },
    });
    expect(wrongType.status).toBe(404);
    const served = await app.request('GET', '/v1/flags/checkout', {
      apiKey: env.serverKey,
      headers: { D: JSON.stringify([{ key: 'checkout', type: 'boolean', value: false }]) },
    });
    expect(served.body.data.flag.value).toEqual({ boolean: true });
  });

  it('refuses a malformed default-value header with 400', async () => {
    const bad = [
      'nope',
      '{}',
      JSON.stringify([{ key: 'x', type: 'boolean' }]),
      JSON.stringify([{ key: 'x', type: 'boolean', value: 'true' }]),
      JSON.stringify([{ key: 'x', type: 'number', value: '1' }]),
      JSON.stringify([{ key: 'x', type: 'string', value: 1 }]),
      JSON.stringify([{ key: 'x', type: 'date', value: 1 }]),
      JSON.stringify([{ key: '', type: 'json', value: 1 }]),
      JSON.stringify([{ key: 'x', type: 'json', value: 1, more: true }]),
    ];
    for (const value of bad) {
      for (const header of ['X-VEXIL-DEFAULT-VALUE', 'X-DEFAULT-VALUE', 'D']) {
        const res = await app.request('GET', '/v1/flags/checkout', { apiKey: env.serverKey, headers: { [header]: value } });
        expect(res.status, `${header}: ${value}`).toBe(400);
        expect(res.body).toEqual(invalidDefaults);
      }
    }
    const list = await app.request('GET', '/v1/flags', { apiKey: env.serverKey, headers: { D: 'nope' } });
    expect(list.body).toEqual(invalidDefaults);
  });

  it('answers 404 for an unknown flag, a key that cannot name a flag, and an unavailable flag', async () => {
    for (const key of ['nope', 'Upper', 'a'.repeat(201), 'empty']) {
      const res = await app.request('GET', `/v1/flags/${key}`, { apiKey: env.serverKey });
      expect(res.status, key).toBe(404);
      expect(res.body).toEqual(notFound);
    }
  });

  it('answers 401 without a key, with an unknown key, and with a mobile or client key naming the kind it needs', async () => {
    for (const path of ['/v1/flags', '/v1/flags/checkout']) {
      const none = await app.request('GET', path);
      expect(none.status).toBe(401);
      expect(none.body).toEqual(invalidKey);
      for (const key of ['srv_' + 'a'.repeat(40), 'garbage', app.ownerToken]) {
        const res = await app.request('GET', path, { apiKey: key });
        expect(res.status, key.slice(0, 4)).toBe(401);
        expect(res.body).toEqual(invalidKey);
      }
      for (const [key, kind] of [
        [mobileKey, 'mobile'],
        [clientKey, 'client'],
      ] as const) {
        // SPEC: a key of the wrong kind is a 401 with the message of any refused key; the
        // code and the kinds accepted are extra members of the envelope.
        const res = await app.request('GET', path, { apiKey: key });
        expect(res.status, kind).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('ApiKey realm="vexil", header="X-VEXIL-API-KEY"');
        expect(res.body).toEqual({
          status: 'error',
          message: 'Invalid API key provided.',
          code: 'key_kind_not_allowed',
          accepted_kinds: ['server'],
        });
      }
    }
  });

  it('does not serve another environment’s flags', async () => {
    const other = await fx.project();
    const otherEnv = await fx.environment(other);
    await fx.flag(other, { key: 'elsewhere', type: 'boolean' });
    await fx.settle(otherEnv);
    const res = await app.request('GET', '/v1/flags/elsewhere', { apiKey: env.serverKey });
    expect(res.status).toBe(404);
    const mine = await app.request('GET', '/v1/flags', { apiKey: otherEnv.serverKey });
    expect(mine.body.data).toEqual([{ flag: { key: 'elsewhere', name: 'Flag elsewhere', type: 'boolean', value: { boolean: false } } }]);
  });

  it('stops accepting a revoked key within one second', async () => {
    const key = await fx.key(env, 'server');
    await waitFor(async () => (await app.request('GET', '/v1/flags', { apiKey: key })).status === 200, 2000, 'new key');
    await fx.revokeKey(key);
    const revokedAt = Date.now();
    await waitFor(async () => (await app.request('GET', '/v1/flags', { apiKey: key })).status === 401, 1000, 'revocation');
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    const res = await app.request('GET', '/v1/flags/checkout', { apiKey: key });
    expect(res.body).toEqual(invalidKey);
  });

  it('serves a change within one second of the revision moving', async () => {
    await fx.publish(env, flags.limit!, { value: '10.5' });
    const changedAt = Date.now();
    await waitFor(
      async () => (await app.request('GET', '/v1/flags/limit', { apiKey: env.serverKey })).body.data.flag.value.number === 10.5,
      1000,
      'new value',
    );
    expect(Date.now() - changedAt).toBeLessThan(1000);
  });

  describe('rollouts', () => {
    it('serves the new target inside the rollout and the previous one outside', async () => {
      const flag = await fx.flag(project, { key: 'rollout-flag', type: 'string', values: ['old', 'new'], defaultValue: 'old' });
      await fx.publish(env, flag, { value: 'old' });
      await fx.publish(env, flag, { value: 'new', rollout: { percentage: 50 } });
      await fx.settle(env);
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const res = await app.request('GET', '/v1/flags/rollout-flag', {
          apiKey: env.serverKey,
          headers: { C: contextHeader({ type: 'user', identifier: `user-${i}` }) },
        });
        seen.add(res.body.data.flag.value.string);
      }
      expect([...seen].sort()).toEqual(['new', 'old']);
      const anonymous = await app.request('GET', '/v1/flags/rollout-flag', { apiKey: env.serverKey });
      expect(anonymous.body.data.flag.value).toEqual({ string: 'old' });
      await sleep(1);
    });
  });
});
