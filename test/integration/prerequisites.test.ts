/**
 * Prerequisites of targets through the management API (write-time refusals, cycles, drafts
 * only, copied into new drafts, 409 on deleting a required flag, value deletion refused), the
 * payload a server key receives, and evaluation through /v1, OFREP and the management preview.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSnapshot, evaluateFlag } from '../../src/engine/index.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';

const P = '/projects/shop';
const env = (flag: string, environment = 'production') => `${P}/flags/${flag}/environments/${environment}`;

describeEachDatabase('target prerequisites', (db) => {
  let app: TestApp;
  let serverKey: string;
  const values = new Map<string, Map<string, string>>(); // flag -> display -> ulid

  async function ok(res: Promise<ApiResponse>): Promise<any> {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  }

  async function flag(key: string, type: 'boolean' | 'string' = 'boolean', extra: string[] = []): Promise<void> {
    await ok(app.mgmt('POST', `${P}/flags`, { key, name: key, type }));
    for (const display of extra) await ok(app.mgmt('POST', `${P}/flags/${key}/values`, { display }));
    const list = (await ok(app.mgmt('GET', `${P}/flags/${key}/values`))) as { ulid: string; display: string }[];
    values.set(key, new Map(list.map((v) => [v.display, v.ulid])));
  }
  const val = (flagKey: string, display: string) => values.get(flagKey)!.get(display)!;

  async function draft(flagKey: string, environment = 'production'): Promise<string> {
    return (await ok(app.mgmt('POST', `${env(flagKey, environment)}/targets`))).ulid;
  }
  const setPrerequisites = (flagKey: string, target: string, prerequisites: unknown[], environment = 'production') =>
    app.mgmt('PUT', `${env(flagKey, environment)}/targets/${target}/prerequisites`, { prerequisites });
  const publish = (flagKey: string, target: string, body: Record<string, unknown> = {}, environment = 'production') =>
    ok(app.mgmt('PUT', `${env(flagKey, environment)}/targets/${target}/publish`, { comment: 'test', ...body }));

  /** Publishes a target of `flagKey` serving `display` (with prerequisites) and returns its ulid. */
  async function serve(
    flagKey: string,
    display: string,
    prerequisites: unknown[] = [],
    body: Record<string, unknown> = {},
  ): Promise<string> {
    const target = await draft(flagKey);
    await ok(app.mgmt('PUT', `${env(flagKey)}/targets/${target}`, { value_ulid: val(flagKey, display) }));
    await ok(setPrerequisites(flagKey, target, prerequisites));
    await publish(flagKey, target, body);
    return target;
  }

  const evaluate = (flagKey: string, context?: unknown) =>
    app.request('POST', `/v1/flags/${flagKey}/evaluate`, { apiKey: serverKey, body: context === undefined ? {} : { context } });
  const ofrep = (flagKey: string, context: Record<string, unknown> = {}) =>
    app.request('POST', `/ofrep/v1/evaluate/flags/${flagKey}`, { apiKey: serverKey, body: { context } });

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok(app.mgmt('POST', '/projects', { key: 'shop', name: 'Shop' }));
    serverKey = (await ok(app.mgmt('POST', `${P}/environments/production/keys`, { kind: 'server' }))).key;
    await flag('checkout');
    await flag('banner', 'string', ['hello', 'sale']);
    await flag('upsell');
    await flag('gamma');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses unknown flags, the flag itself, repeats and foreign values, naming each field, and writes nothing', async () => {
    const target = await draft('upsell');
    const res = await setPrerequisites('upsell', target, [
      { flag_key: 'ghost', value_ulids: [val('checkout', 'true')] },
      { flag_key: 'upsell', value_ulids: [val('upsell', 'true')] },
      { flag_key: 'checkout', value_ulids: [val('checkout', 'true'), val('banner', 'sale'), 'val_01J00000000000000000000000'] },
      { flag_key: 'checkout', value_ulids: [val('checkout', 'false')] },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(
      [
        'prerequisites.0.flag_key',
        'prerequisites.1.flag_key',
        'prerequisites.2.value_ulids.1',
        'prerequisites.2.value_ulids.2',
        'prerequisites.3.flag_key',
      ].sort(),
    );
    expect(await app.knex('target_prerequisites').where('target_ulid', target)).toEqual([]);
    const bad = await setPrerequisites('upsell', target, [{ flag_key: 'checkout', value_ulids: [] }]);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['prerequisites.0.value_ulids']);
    await ok(app.mgmt('DELETE', `${env('upsell')}/targets/${target}`));
  });

  it('refuses cycles through drafts and published targets of the environment, not across environments', async () => {
    // gamma (draft) requires upsell; upsell (published) requires checkout
    const upsell = await serve('upsell', 'true', [{ flag_key: 'checkout', value_ulids: [val('checkout', 'true')] }]);
    expect(upsell).toMatch(/^tgt_/);
    const gammaDraft = await draft('gamma');
    await ok(setPrerequisites('gamma', gammaDraft, [{ flag_key: 'upsell', value_ulids: [val('upsell', 'true')] }]));
    // checkout -> gamma would close checkout -> gamma -> upsell -> checkout
    const checkoutDraft = await draft('checkout');
    const cycle = await setPrerequisites('checkout', checkoutDraft, [{ flag_key: 'gamma', value_ulids: [val('gamma', 'true')] }]);
    expect(cycle.status, JSON.stringify(cycle.body)).toBe(422);
    expect(cycle.body.errors['prerequisites.0.flag_key'][0]).toMatch(/cycle/);
    const direct = await setPrerequisites('checkout', checkoutDraft, [{ flag_key: 'upsell', value_ulids: [val('upsell', 'true')] }]);
    expect(direct.status).toBe(422);
    // in another environment the same edge is fine
    const devDraft = await draft('checkout', 'development');
    await ok(setPrerequisites('checkout', devDraft, [{ flag_key: 'gamma', value_ulids: [val('gamma', 'true')] }], 'development'));
    await ok(app.mgmt('DELETE', `${env('checkout', 'development')}/targets/${devDraft}`));
    await ok(app.mgmt('DELETE', `${env('checkout')}/targets/${checkoutDraft}`));
    await ok(app.mgmt('DELETE', `${env('gamma')}/targets/${gammaDraft}`));
  });

  it("changes only drafts; lists in order; a new draft copies the serving target's prerequisites", async () => {
    const published = (await ok(app.mgmt('GET', `${env('upsell')}/targets`))).find((t: { status: string }) => t.status === 'published');
    const refused = await setPrerequisites('upsell', published.ulid, []);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ status: 'error' });
    const listed = await ok(app.mgmt('GET', `${env('upsell')}/targets/${published.ulid}/prerequisites`));
    expect(listed).toEqual([{ flag_key: 'checkout', flag_ulid: expect.stringMatching(/^flg_/), value_ulids: [val('checkout', 'true')] }]);
    const copy = await draft('upsell');
    expect(await ok(app.mgmt('GET', `${env('upsell')}/targets/${copy}/prerequisites`))).toEqual(listed);
    await ok(app.mgmt('DELETE', `${env('upsell')}/targets/${copy}`));
  });

  it('evaluates prerequisites first, through /v1, OFREP and the management preview; the payload carries them', async () => {
    // upsell serves true only while checkout serves true; checkout serves false now (nothing published: its default)
    let res = await evaluate('upsell', { type: 'user', identifier: 'u-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.flag.value).toEqual({ boolean: false });
    let o = await ofrep('upsell', { targetingKey: 'u-1' });
    expect(o.body).toMatchObject({ value: false, reason: 'PREREQUISITE_FAILED', metadata: { resolved_by: 'prerequisite' } });
    const preview = await ok(app.mgmt('POST', `${env('upsell')}/evaluate`, { context: { type: 'user', identifier: 'u-1' } }));
    expect(preview).toMatchObject({
      value: false,
      resolved_by: 'prerequisite',
      explanation: { prerequisite_failed: 'checkout', rules: [] },
    });

    // checkout: true for beta users only
    const checkout = await draft('checkout');
    await ok(
      app.mgmt('POST', `${env('checkout')}/targets/${checkout}/rules`, {
        value_ulid: val('checkout', 'true'),
        description: 'beta',
        criteria: [{ selector: 'attribute', sub_selector: 'beta', comparer: 'equal', values: ['yes'] }],
      }),
    );
    await publish('checkout', checkout);
    const beta = { type: 'user', identifier: 'u-2', attributes: [{ key: 'beta', values: [{ value: 'yes' }] }] };
    res = await evaluate('upsell', beta);
    expect(res.body.data.flag.value).toEqual({ boolean: true });
    o = await ofrep('upsell', { targetingKey: 'u-2', beta: 'yes' });
    expect(o.body).toMatchObject({ value: true, reason: 'STATIC' });
    o = await ofrep('upsell', { targetingKey: 'u-3', beta: 'no' });
    expect(o.body).toMatchObject({ value: false, reason: 'PREREQUISITE_FAILED' });

    // a chain of 3: banner requires upsell -> checkout
    await serve('banner', 'sale', [{ flag_key: 'upsell', value_ulids: [val('upsell', 'true')] }]);
    expect((await evaluate('banner', beta)).body.data.flag.value).toEqual({ string: 'sale' });
    const other = { type: 'user', identifier: 'u-4' };
    // the first value of a string flag becomes its default
    expect((await ofrep('banner', { targetingKey: 'u-4' })).body).toMatchObject({ value: 'hello', reason: 'PREREQUISITE_FAILED' });
    expect((await evaluate('banner', other)).status).toBe(200);

    const payload = await app.request('GET', '/v1/payload', { apiKey: serverKey });
    expect(payload.status).toBe(200);
    const flags = payload.body.data.config.flags as { key: string; serving: { prerequisites?: unknown } | null }[];
    expect(flags.find((f) => f.key === 'upsell')?.serving?.prerequisites).toEqual([{ flag_key: 'checkout', values: [true] }]);
    expect(flags.find((f) => f.key === 'banner')?.serving?.prerequisites).toEqual([{ flag_key: 'upsell', values: [true] }]);
    expect(flags.find((f) => f.key === 'checkout')?.serving?.prerequisites).toBeUndefined();

    // What an SDK does with the payload: the same answers, evaluated locally.
    const snapshot = compileSnapshot(payload.body.data.config);
    for (const context of [beta, other]) {
      const local = evaluateFlag(snapshot, 'banner', context);
      const remote = await ofrep('banner', { targetingKey: context.identifier, ...(context === beta ? { beta: 'yes' } : {}) });
      expect({ value: local?.value, resolved_by: local?.resolved_by }).toEqual({
        value: remote.body.value,
        resolved_by: remote.body.metadata.resolved_by,
      });
    }
    expect(evaluateFlag(snapshot, 'banner', other)?.resolved_by).toBe('prerequisite');
  });

  it('refuses to delete a required flag (409 listing who requires it) or a listed value, alone or in bulk', async () => {
    const res = await app.mgmt('DELETE', `${P}/flags/checkout`);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', code: 'flag_required' });
    expect(res.body.message).toContain('upsell/production');
    const bulk = await app.mgmt('POST', `${P}/flags/bulk-delete`, { flag_keys: ['checkout', 'gamma'] });
    expect(bulk.status).toBe(409);
    expect(await app.knex('flags').whereIn('key', ['checkout', 'gamma']).count({ n: '*' })).toEqual([{ n: 2 }]);
    const value = await app.mgmt('DELETE', `${P}/flags/upsell/values/${val('upsell', 'true')}`);
    expect(value.status).toBe(422);
    // deleting the requiring flags together with the required one is fine
    const together = await app.mgmt('POST', `${P}/flags/bulk-delete`, { flag_keys: ['banner', 'upsell', 'checkout'] });
    expect(together.status, JSON.stringify(together.body)).toBe(200);
    expect(together.body.data.deleted).toEqual(['banner', 'upsell', 'checkout']);
    expect(await app.knex('target_prerequisites')).toEqual([]);
  });

  it('serves the new display of a required value at once after it is edited (the requiring flag is reloaded too)', async () => {
    await flag('color', 'string', ['red', 'blue']);
    await flag('paint');
    await serve('color', 'red');
    await serve('paint', 'true', [{ flag_key: 'color', value_ulids: [val('color', 'red')] }]);
    const paint = async () =>
      (await app.request('GET', '/v1/payload', { apiKey: serverKey })).body.data.config.flags.find(
        (f: { key: string }) => f.key === 'paint',
      );
    expect((await paint()).serving.prerequisites).toEqual([{ flag_key: 'color', values: ['red'] }]);
    expect((await ofrep('paint', { targetingKey: 'u-1' })).body).toMatchObject({ value: true, reason: 'STATIC' });
    await ok(app.mgmt('PUT', `${P}/flags/color/values/${val('color', 'red')}`, { display: 'crimson' }));
    expect((await paint()).serving.prerequisites).toEqual([{ flag_key: 'color', values: ['crimson'] }]);
    expect((await ofrep('paint', { targetingKey: 'u-1' })).body).toMatchObject({ value: true, reason: 'STATIC' });
  });

  it('a change to a required flag moves the OFREP revision of the flags requiring it, through a chain, and of no other', async () => {
    const keys = ['rev-base', 'rev-middle', 'rev-top', 'rev-other'];
    for (const key of keys) await flag(key);
    await serve('rev-base', 'true');
    await serve('rev-middle', 'true', [{ flag_key: 'rev-base', value_ulids: [val('rev-base', 'true')] }]);
    await serve('rev-top', 'true', [{ flag_key: 'rev-middle', value_ulids: [val('rev-middle', 'true')] }]);
    await serve('rev-other', 'true');
    const revisions = async (on: TestApp = app) => {
      const res = await on.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: serverKey, body: { context: { targetingKey: 'u' } } });
      expect(res.status).toBe(200);
      const flags = res.body.flags as Array<{ key: string; metadata: { revision: number } }>;
      return Object.fromEntries(flags.filter((f) => keys.includes(f.key)).map((f) => [f.key, f.metadata.revision]));
    };
    const environmentRevision = async () =>
      Number(
        (
          await app
            .knex('environments')
            .join('projects', 'projects.ulid', 'environments.project_ulid')
            .where({ 'projects.key': 'shop', 'environments.key': 'production' })
            .first('environments.revision as revision')
        ).revision,
      );

    const before = await revisions();
    const requiredAt = before['rev-base']!;
    // Each requiring flag was last changed after what it requires; the chain carries nothing yet.
    expect(before['rev-middle']).toBeGreaterThan(requiredAt);
    expect(before['rev-top']).toBeGreaterThan(before['rev-middle']!);
    expect((await ofrep('rev-middle')).body.reason).toBe('STATIC');

    // The required flag now serves false: the flag requiring it (and the one requiring that) may answer otherwise.
    await serve('rev-base', 'false');
    const changedAt = await environmentRevision();
    const after = await revisions();
    expect(after).toEqual({ 'rev-base': changedAt, 'rev-middle': changedAt, 'rev-top': changedAt, 'rev-other': before['rev-other'] });
    const middle = await ofrep('rev-middle');
    expect(middle.body.reason).toBe('PREREQUISITE_FAILED');
    expect(middle.body.metadata.revision).toBe(changedAt);
    expect((await ofrep('rev-top')).body.metadata.revision).toBe(changedAt);

    // A change to the requiring flag alone leaves the flag it requires as it was.
    await ok(app.mgmt('PUT', `${P}/flags/rev-top`, { name: 'Top renamed', permanent: false }));
    const renamedAt = await environmentRevision();
    expect(await revisions()).toEqual({ ...after, 'rev-top': renamedAt });

    // Another instance, loading the environment whole from the database, reports the same revisions.
    const other = await startTestApp(db, { databaseUrl: app.composition.core.config.databaseUrl, keepDatabase: true });
    try {
      expect(await revisions(other)).toEqual({ ...after, 'rev-top': renamedAt });
    } finally {
      await other.close();
    }
  });
});
