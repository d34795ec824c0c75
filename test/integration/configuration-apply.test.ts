import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectNoWrites } from './admin-support.js';

/** Calls the management API of one instance and expects a 200. */
function caller(app: () => TestApp) {
  return (method: string, path: string, body?: unknown) => expectOk(app(), method, path, body);
}

describeEachDatabase('flags as code: apply', (db) => {
  let source: TestApp;
  let target: TestApp;
  const okSource = caller(() => source);
  const okTarget = caller(() => target);
  const projectKey = `apply-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const contexts = [
    { type: 'user', identifier: 'u-1' },
    { type: 'user', identifier: 'u-2', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] },
    { type: 'user', identifier: 'u-3', attributes: [{ key: 'email', values: [{ value: 'ada@shop.test' }] }] },
    { type: 'user', identifier: 'u-77' },
  ];

  const exportText = async (app: TestApp) =>
    (
      await fetch(`${app.baseUrl}/management/v1${p}/configuration?format=yaml`, { headers: { authorization: `Bearer ${app.ownerToken}` } })
    ).text();

  async function evaluations(app: TestApp, flags: string[]): Promise<unknown[]> {
    const results = [];
    for (const flag of flags) {
      for (const context of contexts) {
        const res = await app.mgmt(
          'GET',
          `${p}/flags/${flag}/environments/production/evaluate?context=${encodeURIComponent(JSON.stringify(context))}`,
        );
        results.push([flag, context.identifier, res.body.data?.value, res.body.data?.resolved_by]);
      }
    }
    return results;
  }

  /** GET /v1/flags with a production server key, for every context. */
  async function publicAnswers(app: TestApp): Promise<unknown[]> {
    const key = (await app.mgmt('POST', `${p}/environments/production/keys`, { kind: 'server' })).body.data.key as string;
    const answers = [];
    for (const context of contexts) {
      const res = await app.request('GET', '/v1/flags', { apiKey: key, headers: { 'x-vexil-context': JSON.stringify(context) } });
      expect(res.status).toBe(200);
      answers.push(res.body.data);
    }
    return answers;
  }

  beforeAll(async () => {
    source = await startTestApp(db);
    target = await startTestApp(db);
    await okSource('POST', '/projects', {
      key: projectKey,
      name: 'Apply shop',
      description: 'Round trip',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    await okSource('PUT', `${p}/environments/production`, { name: 'Production', color: '#aa0000', comments_required: true });
    await okSource('POST', `${p}/segments`, {
      key: 'pro-users',
      name: 'Pro users',
      included: ['u-9'],
      rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
    });
    await okSource('POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean', description: 'v2' });
    const values: Array<{ ulid: string; display: string }> = await okSource('GET', `${p}/flags/checkout/values`);
    const on = values.find((v) => v.display === 'true')!.ulid;
    const draft = await okSource('POST', `${p}/flags/checkout/environments/production/targets`);
    const targetPath = `${p}/flags/checkout/environments/production/targets/${draft.ulid}`;
    await okSource('POST', `${targetPath}/rules`, {
      value_ulid: on,
      description: 'Pro',
      criteria: [{ selector: 'segment', comparer: 'in', values: ['pro-users'] }],
    });
    await okSource('POST', `${targetPath}/rules`, {
      value_ulid: on,
      description: 'Staff',
      criteria: [{ selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@shop.test'] }],
    });
    await okSource('PUT', `${targetPath}/publish`, { comment: 'Pro and staff' });

    await okSource('POST', `${p}/flags`, { key: 'banner', name: 'Banner', type: 'string' });
    await okSource('PUT', `${p}/flags/banner`, { name: 'Banner', permanent: true });
    await okSource('POST', `${p}/flags/banner/values`, { display: 'Hello' });
    const sale = await okSource('POST', `${p}/flags/banner/values`, { display: 'Sale' });
    const bannerDraft = await okSource('POST', `${p}/flags/banner/environments/production/targets`);
    await okSource('PUT', `${p}/flags/banner/environments/production/targets/${bannerDraft.ulid}`, { value_ulid: sale.ulid });
    await okSource('PUT', `${p}/flags/banner/environments/production/targets/${bannerDraft.ulid}/publish`, {
      comment: 'Half see the sale',
      rollout_enabled: true,
      rollout_mode: 'manual',
      rollout_percentage: 50,
    });
    await okSource('POST', `${p}/flags`, { key: 'limits', name: 'Limits', type: 'json' });
    await okSource('POST', `${p}/flags/limits/values`, { display: '{"max": 3}' });
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('round-trips: export, apply into an empty instance, export again gives the same file and the same answers', async () => {
    const file = (await source.mgmt('GET', `${p}/configuration`)).body;
    // An export carries no publish comments (history, not configuration); production requires one.
    const applied = await target.mgmt('POST', `${p}/configuration/apply?comment=${encodeURIComponent('From the source')}`, file);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.summary.publish).toBe(2);
    expect(await exportText(target)).toBe(await exportText(source));
    expect(await evaluations(target, ['checkout', 'banner', 'limits'])).toEqual(
      await evaluations(source, ['checkout', 'banner', 'limits']),
    );
    expect(await publicAnswers(target)).toEqual(await publicAnswers(source));

    // Every change was audited as its own action, by this request's actor.
    const actions = (
      await target.knex('audit_entries').where('http_path', `/management/v1${p}/configuration/apply`).orderBy('ulid').select('action')
    ).map((r: { action: string }) => r.action);
    expect(actions).toContain('project.created');
    expect(actions).toContain('segment.created');
    expect(actions.filter((a: string) => a === 'target.published')).toHaveLength(2);
    expect(actions.at(-1)).toBe('project.applied');
  });

  it('changes nothing when the same file is applied again, and its plan is empty', async () => {
    const file = (await source.mgmt('GET', `${p}/configuration`)).body;
    const plan = await okTarget('POST', `${p}/configuration/plan`, file);
    expect(plan.changes).toEqual([]);
    const targetsBefore = await target.knex('targets').count({ n: '*' });
    const revisionsBefore = await target.knex('environments').select('key', 'revision').orderBy('key');
    const auditCount = async () => Number(((await target.knex('audit_entries').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
    const auditBefore = await auditCount();
    const again = await okTarget('POST', `${p}/configuration/apply`, file);
    expect(again.changes).toEqual([]);
    expect(await target.knex('targets').count({ n: '*' })).toEqual(targetsBefore);
    expect(await target.knex('environments').select('key', 'revision').orderBy('key')).toEqual(revisionsBefore);
    await new Promise((r) => setTimeout(r, 50));
    // Only the apply's own entry (project.applied) is new.
    expect(await auditCount()).toBe(auditBefore + 1);
  });

  it('publishes a changed serving configuration through the publish path, and refuses all of it when one publish is refused', async () => {
    const file = (await target.mgmt('GET', `${p}/configuration`)).body;
    const checkout = file.flags.find((f: any) => f.key === 'checkout');
    checkout.name = 'Checkout, renamed';
    checkout.environments.production = { value: 'true', comment: null, rules: [], rollout: null };
    // production requires a comment, and the file has none: nothing at all is written.
    const refused = await expectNoWrites(target, () => target.mgmt('POST', `${p}/configuration/apply`, file));
    expect(refused.status).toBe(422);
    expect(refused.body.errors.comment).toBeDefined();

    const applied = await okTarget('POST', `${p}/configuration/apply?comment=${encodeURIComponent('Everyone gets it')}`, file);
    expect(applied.changes.map((c: any) => [c.action, c.kind, c.key])).toEqual([
      ['update', 'flag', 'checkout'],
      ['publish', 'serving', 'checkout'],
    ]);
    const served = await okTarget(
      'GET',
      `${p}/flags/checkout/environments/production/evaluate?context=${encodeURIComponent(JSON.stringify(contexts[0]))}`,
    );
    expect(served).toMatchObject({ value: true, resolved_by: 'target' });
    const targets = await okTarget('GET', `${p}/flags/checkout/environments/production/targets`);
    expect(targets[0]).toMatchObject({ status: 'published', comment: 'Everyone gets it' });

    await okTarget('PUT', `${p}/environments/staging`, { name: 'Staging', confirmation_required: true });
    const staging = (await target.mgmt('GET', `${p}/configuration`)).body;
    staging.flags.find((f: any) => f.key === 'banner').environments.staging = { value: 'Hello', rules: [], rollout: null };
    const confirmation = await expectNoWrites(target, () => target.mgmt('POST', `${p}/configuration/apply`, staging));
    expect(confirmation.status).toBe(422);
  });

  it('deletes what the file leaves out only with prune', async () => {
    const file = (await target.mgmt('GET', `${p}/configuration`)).body;
    file.flags = file.flags.filter((f: any) => f.key !== 'limits');
    expect((await okTarget('POST', `${p}/configuration/apply`, file)).changes).toEqual([]);
    expect((await target.mgmt('GET', `${p}/flags/limits`)).status).toBe(200);
    const pruned = await okTarget('POST', `${p}/configuration/apply?prune=true`, file);
    expect(pruned.changes.map((c: any) => [c.action, c.kind, c.key])).toEqual([['delete', 'flag', 'limits']]);
    expect((await target.mgmt('GET', `${p}/flags/limits`)).status).toBe(404);
  });

  it('needs config:write for environment changes and targets:write for publishes', async () => {
    const res = await target.mgmt('POST', '/tokens', { name: 'flags only', scopes: ['flags:read', 'flags:write', 'targets:read'] });
    const token = res.body.data.token as string;
    const file = (await target.mgmt('GET', `${p}/configuration`)).body;
    file.environments[0].color = '#00aa00';
    const refused = await target.request('POST', `/management/v1${p}/configuration/apply`, { token, body: file });
    expect(refused.status).toBe(403);
  });

  it('applies the whole file in one transaction across environments: one refused publish leaves every environment as it was', async () => {
    // staging requires typed confirmation (an earlier test), so a Bearer-token publish there is refused.
    const file = (await target.mgmt('GET', `${p}/configuration`)).body;
    expect(file.environments.find((e: any) => e.key === 'staging').confirmation_required).toBe(true);
    const banner = file.flags.find((f: any) => f.key === 'banner');
    const served = banner.environments.production;
    banner.name = 'Banner, renamed';
    file.segments.push({ key: 'newcomers', name: 'Newcomers', description: null, included: ['u-5'], excluded: [], rules: [] });
    // production first: its publish is made before staging's is refused.
    banner.environments = {
      production: { value: 'Hello', comment: 'Back to hello', rules: [], rollout: null },
      staging: { value: 'Hello', rules: [], rollout: null },
    };
    const plan = await okTarget('POST', `${p}/configuration/plan`, file);
    expect(plan.changes.map((c: any) => [c.action, c.kind, c.key, c.environment])).toEqual([
      ['create', 'segment', 'newcomers', null],
      ['update', 'flag', 'banner', null],
      ['publish', 'serving', 'banner', 'production'],
      ['publish', 'serving', 'banner', 'staging'],
    ]);
    const refused = await expectNoWrites(target, () => target.mgmt('POST', `${p}/configuration/apply`, file));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/confirmation/i);
    const after = (await target.mgmt('GET', `${p}/configuration`)).body;
    expect(after.flags.find((f: any) => f.key === 'banner').environments.production).toEqual(served);
    expect(after.segments.map((s: any) => s.key)).not.toContain('newcomers');
  });

  it('refuses a bad file with errors keyed by the path inside it, and writes nothing of it', async () => {
    const apply = (file: unknown, project = projectKey) => source.mgmt('POST', `/projects/${project}/configuration/apply`, file);
    const before = await exportText(source);
    const file = (await source.mgmt('GET', `${p}/configuration`)).body;
    const at = (key: string) => file.flags.findIndex((f: any) => f.key === key);
    // Changes that would be applied on their own: none of them may be written either.
    file.project.name = 'Renamed by a bad file';
    file.environments.push({
      key: 'qa',
      name: 'QA',
      description: null,
      color: '#00aa00',
      comments_required: false,
      confirmation_required: false,
    });
    file.segments.push({ key: 'newcomers', name: 'Newcomers', description: null, included: ['u-5'], excluded: [], rules: [] });
    file.flags.push({
      key: 'zz-new',
      name: 'New',
      type: 'boolean',
      description: null,
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      values: [
        { value: 'true', default: false },
        { value: 'false', default: true },
      ],
      environments: { staging: { value: 'true', rules: [], rollout: null } },
    });
    // What is wrong, each at its own place in the file.
    const [banner, checkout, limits] = [at('banner'), at('checkout'), at('limits')];
    file.flags[banner].environments.nowhere = { value: 'Hello', rules: [], rollout: null };
    file.flags[checkout].type = 'string';
    expect(file.flags[checkout].environments.production.rules[0].criteria[0]).toMatchObject({ selector: 'segment', values: ['pro-users'] });
    file.flags[checkout].environments.production.rules[0].criteria[0].values = ['no-such-segment'];
    file.flags[limits].values.push({ value: '{not json', default: false });
    const since = (await source.knex('audit_entries').orderBy('ulid', 'desc').first('ulid')).ulid as string;

    const refused = await expectNoWrites(source, () => apply(file));
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors).sort()).toEqual(
      [
        `flags.${banner}.environments.nowhere`,
        `flags.${checkout}.type`,
        `flags.${checkout}.environments.production.rules.0.criteria.0.values`,
        `flags.${limits}.values.1.value`,
      ].sort(),
    );
    expect(['reference_not_found', 'state_conflict', 'value_type_mismatch']).toContain(refused.body.code);
    expect(await exportText(source)).toBe(before);
    // Audited as the refused apply it was, and nothing else: no change was recorded, so none was sent.
    const entries = await source
      .knex('audit_entries')
      .where('ulid', '>', since)
      .whereNot('action', 'project.exported')
      .orderBy('ulid')
      .select('action', 'result', 'status_code');
    expect(entries).toEqual([{ action: 'project.applied', result: 'invalid', status_code: 422 }]);

    // A file the schema refuses is refused before anything is looked at, with paths inside it too.
    const schemaInvalid = await expectNoWrites(source, () => apply({ ...file, flags: [{ key: 'Bad Key' }] }));
    expect(schemaInvalid.status).toBe(422);
    expect(schemaInvalid.body.code).toBe('validation_failed');
    expect(Object.keys(schemaInvalid.body.errors).length).toBeGreaterThan(0);
    expect(Object.keys(schemaInvalid.body.errors).every((field) => field.startsWith('flags.0'))).toBe(true);

    // A bad file for a project this instance does not have: the project is not created.
    const newKey = `${projectKey}-new`;
    const fresh = {
      ...(await source.mgmt('GET', `${p}/configuration`)).body,
      project: { key: newKey, name: 'New', description: 'Never made' },
    };
    fresh.flags[at('limits')].values.push({ value: '{not json', default: false });
    const unborn = await expectNoWrites(source, () => apply(fresh, newKey));
    expect(unborn.status).toBe(422);
    expect(Object.keys(unborn.body.errors)).toEqual([`flags.${limits}.values.1.value`]);
    expect((await source.mgmt('GET', `/projects/${newKey}`)).status).toBe(404);
  });
});
