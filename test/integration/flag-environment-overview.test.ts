import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, managementToken, waitFor, type EnvironmentFixture, type FlagFixture, type ProjectFixture } from './public-fixtures.js';

// getFlagEnvironmentOverview (specs/management.yaml): each part is what its own operation answers.
// Every answer here is also checked against the document by the test app.
describeEachDatabase('the flag page of one environment in one read (getFlagEnvironmentOverview)', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let production: EnvironmentFixture;
  let staging: EnvironmentFixture;
  let flag: FlagFixture;
  let previous: string;
  let current: string;

  const flagPath = (envKey: string, tail = '') => `/projects/${project.key}/flags/${flag.key}/environments/${envKey}${tail}`;
  const overview = (envKey: string, query = '', token?: string) =>
    app.mgmt('GET', `${flagPath(envKey, '/overview')}${query}`, undefined, token ? { token } : {});
  const data = async (path: string) => {
    const res = await app.mgmt('GET', path);
    expect(res.status, path).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    project = await fx.project();
    production = await fx.environment(project, 'production');
    staging = await fx.environment(project, 'staging');
    flag = await fx.flag(project, { key: 'colour', type: 'string', values: ['blue', 'green'] });
    const gate = await fx.flag(project, { key: 'gate', type: 'boolean' });
    previous = await fx.publish(production, flag, { value: 'blue' });
    // A rollout in progress: the page shows the previous publish too, for the contexts outside it.
    current = await fx.publish(production, flag, {
      value: 'green',
      rules: [{ value: 'blue', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['free'] }] }],
      rollout: { percentage: 40, status: 'active' },
    });
    await app.knex('target_prerequisites').insert({
      target_ulid: current,
      required_flag_ulid: gate.ulid,
      position: 0,
      value_ulids: JSON.stringify([gate.values.get('true')]),
    });
    await fx.bump(production.ulid);
    await fx.settle(production);
    await fx.settle(staging);
    for (const targetingKey of ['u1', 'u2']) {
      const res = await app.request('POST', '/ofrep/v1/evaluate/flags/colour', {
        apiKey: production.serverKey,
        body: { context: { targetingKey, plan: 'pro' } },
      });
      expect(res.status).toBe(200);
    }
    await fx.flushTelemetry();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers each part as its own operation does', async () => {
    const res = await overview(production.key);
    expect(res.status).toBe(200);
    const got = res.body.data;
    const flagWithServing = await data(`/projects/${project.key}/flags/${flag.key}?include=serving`);
    expect(got.flag_key).toBe('colour');
    expect(got.environment_key).toBe(production.key);
    expect(got.serving).toEqual(
      flagWithServing.environments.find((s: { environment_key: string }) => s.environment_key === production.key),
    );
    expect(got.serving).toMatchObject({ value: 'green', rules_count: 1, rollout_percentage: 40, rollout_status: 'active' });
    expect(got.served).toEqual(await data(flagPath(production.key, '/evaluate')));
    expect(got.targets).toEqual(await data(flagPath(production.key, '/targets')));
    expect(got.targets.map((t: { ulid: string }) => t.ulid)).toEqual([current, previous]);
    expect(got.insights).toEqual(await data(flagPath(production.key, '/insights')));
    expect(got.insights.evaluated_count).toBe(2);
    expect(got.evaluations).toEqual(await data(flagPath(production.key, '/evaluations')));
    expect(got.evaluations.total_24h).toBe(2);
    expect(got.exposures).toEqual(await data(`${flagPath(production.key, '/exposures')}?days=7`));
    expect(got.context_attributes).toEqual(await data(`/projects/${project.key}/environments/${production.key}/context-attributes`));
    expect(got.context_attributes.attributes.map((a: { key: string }) => a.key)).toContain('plan');
    // The publish serving now and, its rollout in progress, the one before it: newest first; no draft.
    expect(got.target_rules.map((p: { target_ulid: string }) => p.target_ulid)).toEqual([current, previous]);
    expect(got.target_rules[0].rules).toEqual(await data(flagPath(production.key, `/targets/${current}/rules`)));
    expect(got.target_rules[0].rules).toHaveLength(1);
    expect(got.target_rules[0].prerequisites).toEqual(await data(flagPath(production.key, `/targets/${current}/prerequisites`)));
    expect(got.target_rules[0].prerequisites).toEqual([
      { flag_key: 'gate', flag_ulid: expect.any(String), value_ulids: [expect.any(String)] },
    ]);
    expect(got.target_rules[1]).toEqual({ target_ulid: previous, rules: [], prerequisites: [] });
  });

  it('shows only the publish serving now once its rollout is complete', async () => {
    await app.knex('targets').where({ ulid: current }).update({ rollout_status: 'completed', rollout_percentage: 100 });
    await fx.bump(production.ulid);
    try {
      const got = (await overview(production.key)).body.data;
      expect(got.target_rules.map((p: { target_ulid: string }) => p.target_ulid)).toEqual([current]);
      expect(got.serving).toMatchObject({ rollout_percentage: null, rollout_status: null });
    } finally {
      await app.knex('targets').where({ ulid: current }).update({ rollout_status: 'active', rollout_percentage: 40 });
      await fx.bump(production.ulid);
    }
  });

  it('adds the draft last, with its rules and prerequisites', async () => {
    const draft = await app.mgmt('POST', flagPath(production.key, '/targets'));
    expect(draft.status).toBe(200);
    const draftUlid = draft.body.data.ulid as string;
    try {
      const rule = await app.mgmt('POST', flagPath(production.key, `/targets/${draftUlid}/rules`), {
        value_ulid: flag.values.get('blue'),
        description: 'Germany',
        criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'equal', values: ['DE'] }],
      });
      expect(rule.status).toBe(200);
      const got = (await overview(production.key)).body.data;
      expect(got.target_rules.map((t: { target_ulid: string }) => t.target_ulid)).toEqual([current, previous, draftUlid]);
      const last = got.target_rules[2];
      expect(last.rules).toEqual(await data(flagPath(production.key, `/targets/${draftUlid}/rules`)));
      // A draft starts as a copy of the publish serving now: its rule and prerequisite, then the new rule.
      expect(last.rules.map((r: { description: string }) => r.description)).toEqual(['rule 1', 'Germany']);
      expect(last.prerequisites).toEqual(await data(flagPath(production.key, `/targets/${draftUlid}/prerequisites`)));
      expect(last.prerequisites.map((p: { flag_key: string }) => p.flag_key)).toEqual(['gate']);
    } finally {
      expect((await app.mgmt('DELETE', flagPath(production.key, `/targets/${draftUlid}`))).status).toBe(200);
    }
  });

  it('answers an environment where nothing is published: the default, no targets, no rules', async () => {
    const res = await overview(staging.key);
    expect(res.status).toBe(200);
    const got = res.body.data;
    expect(got.targets).toEqual([]);
    expect(got.target_rules).toEqual([]);
    expect(got.serving).toMatchObject({ served_by: 'default', published_at: null, evaluations_24h: 0 });
    expect(got.served).toEqual(await data(flagPath(staging.key, '/evaluate')));
    expect(got.evaluations).toEqual({ hours: 168, buckets: [], total_24h: 0 });
  });

  it('reads the evaluations of `hours` hours and the exposures of `days` days; other values are a 422', async () => {
    const got = (await overview(production.key, '?hours=24&days=2')).body.data;
    expect(got.evaluations).toEqual(await data(`${flagPath(production.key, '/evaluations')}?hours=24`));
    expect(got.evaluations.hours).toBe(24);
    expect(got.exposures).toEqual(await data(`${flagPath(production.key, '/exposures')}?days=2`));
    for (const query of ['?hours=0', '?hours=169', '?days=0', '?days=91', '?hours=x']) {
      const res = await overview(production.key, query);
      expect(res.status, query).toBe(422);
      expect(res.body.status, query).toBe('error');
    }
  });

  it('is a 404 for an unknown flag or environment, a 401 without a token', async () => {
    const unknownEnv = await overview('nowhere');
    expect(unknownEnv.status).toBe(404);
    const unknownFlag = await app.mgmt('GET', `/projects/${project.key}/flags/missing/environments/${production.key}/overview`);
    expect(unknownFlag.status).toBe(404);
    const anonymous = await app.request('GET', `/management/v1${flagPath(production.key, '/overview')}`);
    expect(anonymous.status).toBe(401);
  });

  it('needs targets:read as well as flags:read (403 scope_missing), and is audited once as flag.read', async () => {
    const flagsOnly = await managementToken(app, ['flags:read']);
    const refused = await overview(production.key, '', flagsOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('scope_missing');
    const targetsOnly = await managementToken(app, ['targets:read']);
    expect((await overview(production.key, '', targetsOnly)).status).toBe(403);
    const created = await app.mgmt('POST', '/tokens', {
      name: 'overview-reader',
      scopes: ['flags:read', 'targets:write'],
      tier: 'unlimited',
    });
    expect((await overview(production.key, '', created.body.data.token)).status).toBe(200);
    // One entry for the request, as the overview itself (the reads it is made of describe nothing).
    const entries = await waitFor(
      async () => {
        const rows = await app.knex('audit_entries').where({ token_name: 'overview-reader' });
        return rows.length > 0 ? rows : undefined;
      },
      3000,
      'the overview entry',
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(await app.knex('audit_entries').where({ token_name: 'overview-reader' })).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'flag.read',
      subject_type: 'flag',
      subject_ulid: flag.ulid,
      subject_label: 'colour',
      environment_ulid: production.ulid,
      result: 'success',
    });
  });
});
