import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectNoWrites } from './admin-support.js';

describeEachDatabase('flags as code: promote and serve', (db) => {
  let app: TestApp;
  const projectKey = `promote-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;

  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const evaluate = (flag: string, env: string, context: object = { type: 'user', identifier: 'u-1' }) =>
    ok('GET', `${p}/flags/${flag}/environments/${env}/evaluate?context=${encodeURIComponent(JSON.stringify(context))}`);

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Promote',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
        { key: 'locked', name: 'Locked' },
      ],
    });
    await ok('PUT', `${p}/environments/production`, { name: 'Production', comments_required: true });
    await ok('PUT', `${p}/environments/locked`, { name: 'Locked', confirmation_required: true });
    await ok('POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    await ok('POST', `${p}/flags`, { key: 'color', name: 'Color', type: 'string' });
    await ok('POST', `${p}/flags/color/values`, { display: 'blue' });
    await ok('POST', `${p}/flags/color/values`, { display: 'red' });
    const values: Array<{ ulid: string; display: string }> = await ok('GET', `${p}/flags/checkout/values`);
    const on = values.find((v) => v.display === 'true')!.ulid;
    const draft = await ok('POST', `${p}/flags/checkout/environments/staging/targets`);
    const targetPath = `${p}/flags/checkout/environments/staging/targets/${draft.ulid}`;
    await ok('POST', `${targetPath}/rules`, {
      value_ulid: on,
      description: 'Staff',
      criteria: [{ selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@shop.test'] }],
    });
    await ok('PUT', `${targetPath}/publish`, {});
  });
  afterAll(async () => {
    await app?.close();
  });

  it('promotes a serving configuration as a draft, then published, and skips what is already the same', async () => {
    const staff = { type: 'user', identifier: 'u-2', attributes: [{ key: 'email', values: [{ value: 'ada@shop.test' }] }] };
    const drafted = await ok('POST', `${p}/configuration/promote`, { from: 'staging', to: 'production', flags: ['checkout'] });
    expect(drafted).toEqual({
      promoted: [{ flag: 'checkout', target_ulid: expect.stringMatching(/^tgt_/), status: 'draft' }],
      unchanged: [],
    });
    expect(await evaluate('checkout', 'production', staff)).toMatchObject({ value: false, resolved_by: 'default' });
    const rules = await ok('GET', `${p}/flags/checkout/environments/production/targets/${drafted.promoted[0].target_ulid}/rules`);
    expect(rules.map((r: { description: string }) => r.description)).toEqual(['Staff']);

    // production requires a comment: refused without one, and nothing is written.
    const refused = await expectNoWrites(app, () =>
      app.mgmt('POST', `${p}/configuration/promote`, { from: 'staging', to: 'production', publish: true }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('comment_required');
    const published = await ok('POST', `${p}/configuration/promote`, {
      from: 'staging',
      to: 'production',
      publish: true,
      comment: 'Same as staging',
    });
    expect(published.promoted).toEqual([{ flag: 'checkout', target_ulid: expect.stringMatching(/^tgt_/), status: 'published' }]);
    expect(await evaluate('checkout', 'production', staff)).toMatchObject({ value: true, resolved_by: 'rule' });
    const again = await ok('POST', `${p}/configuration/promote`, { from: 'staging', to: 'production', publish: true, comment: 'again' });
    expect(again).toEqual({ promoted: [], unchanged: ['checkout'] });
  });

  it('refuses a flag without a published target in the source, the same environment twice, and an unknown one', async () => {
    const noTarget = await app.mgmt('POST', `${p}/configuration/promote`, {
      from: 'staging',
      to: 'production',
      flags: ['checkout', 'color', 'nowhere'],
    });
    expect(noTarget.status).toBe(422);
    expect(noTarget.body.code).toBe('reference_not_found');
    expect(noTarget.body.errors).toEqual({
      'flags.1': ['The flag "color" has no published target in staging.'],
      'flags.2': ['The flag "nowhere" has no published target in staging.'],
    });
    const same = await app.mgmt('POST', `${p}/configuration/promote`, { from: 'staging', to: 'staging' });
    expect(same.status).toBe(422);
    expect(same.body).toMatchObject({ code: 'invalid_combination', errors: { to: [expect.any(String)] } });
    expect((await app.mgmt('POST', `${p}/configuration/promote`, { from: 'staging', to: 'qa' })).status).toBe(404);
    // Each refusal is audited as the promote it was.
    const audited = await app
      .knex('audit_entries')
      .where('http_path', `/management/v1${p}/configuration/promote`)
      .orderBy('ulid', 'desc')
      .limit(3)
      .select('action', 'status_code');
    expect(audited).toEqual([
      { action: 'project.promoted', status_code: 404 },
      { action: 'project.promoted', status_code: 422 },
      { action: 'project.promoted', status_code: 422 },
    ]);
    // A Bearer token cannot publish where typed confirmation is required; nothing is written.
    const locked = await expectNoWrites(app, () =>
      app.mgmt('POST', `${p}/configuration/promote`, { from: 'staging', to: 'locked', publish: true }),
    );
    expect(locked.status).toBe(422);
    expect(locked.body.code).toBe('confirmation_required');
  });

  it("promotes rules naming segments and values to any environment: both are the project's, never missing there", async () => {
    await ok('POST', `${p}/segments`, { key: 'testers', name: 'Testers', included: ['u-7'] });
    await ok('POST', `${p}/flags`, { key: 'tint', name: 'Tint', type: 'string' });
    await ok('POST', `${p}/flags/tint/values`, { display: 'grey' });
    const red = (await ok('POST', `${p}/flags/tint/values`, { display: 'red' })).ulid;
    const draft = await ok('POST', `${p}/flags/tint/environments/staging/targets`);
    const target = `${p}/flags/tint/environments/staging/targets/${draft.ulid}`;
    await ok('POST', `${target}/rules`, {
      value_ulid: red,
      description: 'Testers',
      criteria: [{ selector: 'segment', comparer: 'in', values: ['testers'] }],
    });
    await ok('PUT', `${target}/publish`, {});

    const promoted = await ok('POST', `${p}/configuration/promote`, {
      from: 'staging',
      to: 'production',
      flags: ['tint'],
      publish: true,
      comment: 'Testers see red',
    });
    expect(promoted.promoted).toEqual([{ flag: 'tint', target_ulid: expect.stringMatching(/^tgt_/), status: 'published' }]);
    expect(await evaluate('tint', 'production', { type: 'user', identifier: 'u-7' })).toMatchObject({ value: 'red', resolved_by: 'rule' });
  });

  it('serves a value in one call by display or ulid, keeping the rules unless told to drop them', async () => {
    const served = await ok('POST', `${p}/flags/checkout/environments/staging/serve`, { value: 'true' });
    expect(served).toMatchObject({ status: 'published' });
    expect(await evaluate('checkout', 'staging')).toMatchObject({ value: true, resolved_by: 'target' });
    const rules = await ok('GET', `${p}/flags/checkout/environments/staging/targets/${served.ulid}/rules`);
    expect(rules).toHaveLength(1);

    const values: Array<{ ulid: string; display: string }> = await ok('GET', `${p}/flags/color/values`);
    const red = values.find((v) => v.display === 'red')!;
    const byUlid = await ok('POST', `${p}/flags/color/environments/staging/serve`, { value: red.ulid, drop_rules: true });
    expect(byUlid.value_ulid).toBe(red.ulid);
    expect(await evaluate('color', 'staging')).toMatchObject({ value: 'red' });

    const audit = await app
      .knex('audit_entries')
      .where('http_path', `/management/v1${p}/flags/color/environments/staging/serve`)
      .orderBy('ulid')
      .select('action');
    expect(audit.map((r: { action: string }) => r.action)).toEqual([
      'target.created',
      'target.updated',
      'target.published',
      'target.served',
    ]);
  });

  it('refuses a value the flag does not have, a missing comment and a confirmation environment, writing nothing', async () => {
    const unknown = await expectNoWrites(app, () => app.mgmt('POST', `${p}/flags/color/environments/staging/serve`, { value: 'green' }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ value: ['The flag "color" has no value green.'] });
    const noComment = await expectNoWrites(app, () =>
      app.mgmt('POST', `${p}/flags/checkout/environments/production/serve`, { value: 'false' }),
    );
    expect(noComment.status).toBe(422);
    expect(noComment.body.errors.comment).toBeDefined();
    const locked = await expectNoWrites(app, () => app.mgmt('POST', `${p}/flags/checkout/environments/locked/serve`, { value: 'true' }));
    expect(locked.status).toBe(422);
  });
});
