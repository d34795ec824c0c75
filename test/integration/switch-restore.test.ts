import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectNoWrites } from './admin-support.js';

const password = 'correct horse battery staple';

/** The on/off state of the serving overview, the switch, and the restore of an earlier publish. */
describeEachDatabase('flag switch, on/off state and restore', (db) => {
  let app: TestApp;
  let session: { cookie: string; csrf: string };
  const projectKey = `switch-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const staff = { type: 'user', identifier: 'u-2', attributes: [{ key: 'email', values: [{ value: 'ada@shop.test' }] }] };
  const anyone = { type: 'user', identifier: 'u-3' };

  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const bySession = (method: string, path: string, body?: unknown) =>
    app.request(method, `/management/v1${path}`, {
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
      ...(body === undefined ? {} : { body }),
    });
  const evaluate = async (flag: string, env: string, context: object) =>
    (await ok('GET', `${p}/flags/${flag}/environments/${env}/evaluate?context=${encodeURIComponent(JSON.stringify(context))}`)).value;
  const stateOf = async (flag: string, env: string) => {
    const data = await ok('GET', `${p}/flags/${flag}?include=serving`);
    return data.environments.find((e: { environment_key: string }) => e.environment_key === env);
  };
  /** Publishes in staging a target of `checkout` serving `true` to staff by a rule. */
  const publishStaffRule = async () => {
    const values: Array<{ ulid: string; display: string }> = await ok('GET', `${p}/flags/checkout/values`);
    const draft = await ok('POST', `${p}/flags/checkout/environments/staging/targets`);
    const path = `${p}/flags/checkout/environments/staging/targets/${draft.ulid}`;
    await ok('POST', `${path}/rules`, {
      value_ulid: values.find((v) => v.display === 'true')!.ulid,
      description: 'Staff',
      criteria: [{ selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@shop.test'] }],
    });
    return ok('PUT', `${path}/publish`, { comment: 'staff first' });
  };

  beforeAll(async () => {
    app = await startTestApp(db);
    const owner = await app.knex('accounts').where('ulid', app.ownerUlid).first('email');
    await ok('PUT', `/accounts/${app.ownerUlid}/password`, { password });
    const signIn = await app.request('POST', '/management/v1/session', { body: { email: owner.email, password } });
    session = { cookie: (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string, csrf: signIn.body.data.csrf_token };
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Switch',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'locked', name: 'Locked' },
      ],
    });
    await ok('PUT', `${p}/environments/locked`, { name: 'Locked', confirmation_required: true });
    await ok('POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    await ok('POST', `${p}/flags`, { key: 'color', name: 'Color', type: 'string' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reports on and off per environment from what is served, in the list and on one flag', async () => {
    // A new boolean flag serves its default `false` to everyone: off.
    expect(await stateOf('checkout', 'staging')).toMatchObject({
      on: false,
      value: 'false',
      served_by: 'default',
      rules_count: 0,
      published_at: null,
    });
    // A string flag without values has nothing to serve: off.
    expect(await stateOf('color', 'staging')).toMatchObject({ on: false, value: null, served_by: 'unavailable' });
    const published = await publishStaffRule();
    const state = await stateOf('checkout', 'staging');
    // The base value is still `false`, but a rule serves `true` to some contexts: on.
    expect(state).toMatchObject({ on: true, value: 'false', served_by: 'target', rules_count: 1, published_at: published.published_at });
    const list = await ok('GET', `${p}/flags?include=serving`);
    const listed = list.find((f: { key: string }) => f.key === 'checkout').environments;
    expect(listed).toEqual([state, expect.objectContaining({ environment_key: 'locked', on: false })]);
    // Without include the flag has no serving state.
    expect(await ok('GET', `${p}/flags/checkout`)).not.toHaveProperty('environments');
    expect((await app.mgmt('GET', `${p}/flags/checkout?include=everything`)).status).toBe(422);
  });

  it('switches off (the off value to everyone) and back on (the targeting before), writing nothing when already there', async () => {
    expect(await evaluate('checkout', 'staging', staff)).toBe(true);
    const off = await ok('POST', `${p}/flags/checkout/environments/staging/switch`, { on: false, comment: 'incident' });
    expect(off).toMatchObject({ environment_key: 'staging', on: false, value: 'false', rules_count: 0 });
    expect(await evaluate('checkout', 'staging', staff)).toBe(false);
    const again = await expectNoWrites(app, () => app.mgmt('POST', `${p}/flags/checkout/environments/staging/switch`, { on: false }));
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(off);

    const on = await ok('POST', `${p}/flags/checkout/environments/staging/switch`, { on: true });
    expect(on).toMatchObject({ on: true, value: 'false', rules_count: 1 });
    expect(await evaluate('checkout', 'staging', staff)).toBe(true);
    expect(await evaluate('checkout', 'staging', anyone)).toBe(false);
    const audited = await app
      .knex('audit_entries')
      .where('http_path', `/management/v1${p}/flags/checkout/environments/staging/switch`)
      .orderBy('ulid')
      .select('action', 'status_code');
    // Each switch is audited once, as itself: the targets it wrote have no entries of their own.
    expect(audited).toEqual([
      { action: 'target.switched', status_code: 200 },
      { action: 'target.switched', status_code: 200 },
      { action: 'target.switched', status_code: 200 },
    ]);
  });

  it('turns a boolean flag with no earlier targeting on as true to everyone, and refuses another type', async () => {
    await ok('POST', `${p}/flags`, { key: 'fresh', name: 'Fresh', type: 'boolean' });
    expect(await ok('POST', `${p}/flags/fresh/environments/staging/switch`, { on: true })).toMatchObject({ on: true, value: 'true' });
    expect(await evaluate('fresh', 'staging', anyone)).toBe(true);
    await ok('POST', `${p}/flags/color/values`, { display: 'blue' });
    await ok('POST', `${p}/flags/color/values`, { display: 'red' });
    // The default (blue, the first value) to everyone is off for a string flag.
    expect(await stateOf('color', 'staging')).toMatchObject({ on: false, value: 'blue' });
    const refused = await expectNoWrites(app, () => app.mgmt('POST', `${p}/flags/color/environments/staging/switch`, { on: true }));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('state_conflict');
    await ok('POST', `${p}/flags/color/environments/staging/serve`, { value: 'red', drop_rules: true });
    expect(await stateOf('color', 'staging')).toMatchObject({ on: true, value: 'red' });
    expect(await ok('POST', `${p}/flags/color/environments/staging/switch`, { on: false })).toMatchObject({ on: false, value: 'blue' });
  });

  it('restores an earlier publish: its value and rules go live again as a new publish', async () => {
    const history: Array<{ ulid: string; status: string; published_at: string | null; comment: string | null }> = await ok(
      'GET',
      `${p}/flags/checkout/environments/staging/targets`,
    );
    const staffFirst = history.find((t) => t.comment === 'staff first')!;
    expect(staffFirst.status).toBe('expired');
    await ok('POST', `${p}/flags/checkout/environments/staging/serve`, { value: 'true', drop_rules: true });
    expect(await evaluate('checkout', 'staging', anyone)).toBe(true);
    const restored = await ok('POST', `${p}/flags/checkout/environments/staging/targets/${staffFirst.ulid}/restore`, {
      comment: 'back to staff only',
    });
    expect(restored).toMatchObject({ status: 'published', comment: 'back to staff only', rollout_mode: null });
    expect(restored.ulid).not.toBe(staffFirst.ulid);
    const rules = await ok('GET', `${p}/flags/checkout/environments/staging/targets/${restored.ulid}/rules`);
    expect(rules).toHaveLength(1);
    expect(rules[0].description).toBe('Staff');
    expect(rules[0].criteria.data).toEqual([
      expect.objectContaining({
        selector: 'attribute',
        sub_selector: 'email',
        comparer: 'endswith',
        values: { data: [{ value: '@shop.test' }] },
      }),
    ]);
    expect(await evaluate('checkout', 'staging', anyone)).toBe(false);
    expect(await evaluate('checkout', 'staging', staff)).toBe(true);
    // The restored target stays in the history as it was.
    expect(await ok('GET', `${p}/flags/checkout/environments/staging/targets/${staffFirst.ulid}`)).toMatchObject({
      status: 'expired',
      comment: 'staff first',
    });
    const audited = await app
      .knex('audit_entries')
      .where('http_path', `/management/v1${p}/flags/checkout/environments/staging/targets/${staffFirst.ulid}/restore`)
      .where('action', 'target.restored')
      .select('action', 'status_code');
    expect(audited).toEqual([{ action: 'target.restored', status_code: 200 }]);
  });

  it('refuses to restore a draft, an unknown target, and changes nothing', async () => {
    const draft = await ok('POST', `${p}/flags/checkout/environments/staging/targets`);
    const refused = await expectNoWrites(app, () =>
      app.mgmt('POST', `${p}/flags/checkout/environments/staging/targets/${draft.ulid}/restore`, {}),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('state_conflict');
    await ok('DELETE', `${p}/flags/checkout/environments/staging/targets/${draft.ulid}`);
    const unknown = await app.mgmt('POST', `${p}/flags/checkout/environments/staging/targets/tgt_01J8Z3K7Q9V2M8N4P6R5S1T0W6/restore`, {});
    expect(unknown.status).toBe(404);
    const extra = await app.mgmt('POST', `${p}/flags/checkout/environments/staging/switch`, { on: true, colour: 'red' });
    expect(extra.status).toBe(422);
  });

  it('holds typed confirmation: Bearer tokens are refused, a console session must type the key', async () => {
    const history: Array<{ ulid: string }> = await ok('GET', `${p}/flags/checkout/environments/staging/targets`);
    const locked = `${p}/flags/checkout/environments/locked`;
    const token = await expectNoWrites(app, () => app.mgmt('POST', `${locked}/switch`, { on: true, confirmation: 'locked' }));
    expect(token.status).toBe(422);
    expect(token.body.code).toBe('confirmation_required');
    const wrong = await expectNoWrites(app, () => bySession('POST', `${locked}/switch`, { on: true, confirmation: 'staging' }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toHaveProperty('confirmation');
    const on = await bySession('POST', `${locked}/switch`, { on: true, confirmation: 'locked' });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.data).toMatchObject({ environment_key: 'locked', on: true, value: 'true' });
    const off = await bySession('POST', `${locked}/switch`, { on: false, confirmation: 'locked' });
    expect(off.body.data).toMatchObject({ on: false, value: 'false' });
    const lockedHistory: Array<{ ulid: string; value_ulid: string; status: string }> = await ok('GET', `${locked}/targets`);
    const first = lockedHistory.find((t) => t.status === 'expired')!;
    const restoreByToken = await expectNoWrites(app, () => app.mgmt('POST', `${locked}/targets/${first.ulid}/restore`, {}));
    expect(restoreByToken.body.code).toBe('confirmation_required');
    const restored = await bySession('POST', `${locked}/targets/${first.ulid}/restore`, { confirmation: 'locked' });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.data).toMatchObject({ status: 'published', value_ulid: first.value_ulid });
    // A target of another environment is not found here.
    expect((await app.mgmt('POST', `${locked}/targets/${history[0]!.ulid}/restore`, {})).status).toBe(404);
  });
});
