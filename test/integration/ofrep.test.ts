import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, type EnvironmentFixture, type ProjectFixture } from './public-fixtures.js';

describeEachDatabase('OFREP: POST /ofrep/v1/evaluate/flags and /flags/{key}', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let mobileKey: string;
  let clientKey: string;

  const single = (key: string, body: unknown, apiKey = env.serverKey) =>
    app.request('POST', `/ofrep/v1/evaluate/flags/${key}`, { apiKey, body });
  const raw = (path: string, rawBody: string, apiKey = env.serverKey, contentType = 'application/json') =>
    app.request('POST', path, { apiKey, rawBody, headers: { 'content-type': contentType } });

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    ({ project, env, mobileKey, clientKey } = await fx.keyedEnvironment());
    const checkout = await fx.flag(project, { key: 'checkout', type: 'boolean' });
    const theme = await fx.flag(project, { key: 'theme', type: 'json', values: ['{"dense":false,"primary":"#0055ff"}', '{"dense":true}'] });
    const banner = await fx.flag(project, { key: 'banner', type: 'string', values: ['Welcome'], include_in_mobile: false });
    await fx.flag(project, { key: 'limit', type: 'number', values: ['20', '50'], include_in_client: false });
    const split = await fx.flag(project, { key: 'split', type: 'string', values: ['old', 'new'] });
    await fx.flag(project, { key: 'nothing', type: 'string', values: [], defaultValue: null });
    await fx.publish(env, checkout, {
      value: 'false',
      rules: [
        { value: 'true', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] },
        { value: 'true', criteria: [{ selector: 'attribute', sub_selector: 'roles', comparer: 'in', values: ['admin'] }] },
        { value: 'true', criteria: [{ selector: 'attribute', sub_selector: 'seats', comparer: 'gte', values: ['100'] }] },
        { value: 'true', criteria: [{ selector: 'attribute', sub_selector: 'beta', comparer: 'equal', values: ['true'] }] },
        { value: 'true', criteria: [{ selector: 'context', sub_selector: 'organization', comparer: 'equal', values: ['org-1'] }] },
      ],
    });
    await fx.publish(env, theme, { value: '{"dense":false,"primary":"#0055ff"}' });
    await fx.publish(env, banner, { value: 'Welcome' });
    await fx.publish(env, split, { value: 'old' });
    await fx.publish(env, split, { value: 'new', rollout: { percentage: 100 } });
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('evaluates one flag: reasons STATIC, TARGETING_MATCH and SPLIT (the protocol has no DEFAULT) with variant and metadata', async () => {
    // Fixtures write no revision_changes rows: no recorded change, so each flag's revision is 0.
    const revision = 0;
    const plain = await single('checkout', { context: { targetingKey: 'user-1' } });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({
      key: 'checkout',
      reason: 'STATIC',
      variant: 'false',
      value: false,
      metadata: { resolved_by: 'target', type: 'boolean', revision },
    });
    const match = await single('checkout', { context: { targetingKey: 'user-1', plan: 'pro' } });
    expect(match.body).toMatchObject({ reason: 'TARGETING_MATCH', variant: 'true', value: true, metadata: { resolved_by: 'rule' } });
    const split = await single('split', { context: { targetingKey: 'user-1' } });
    expect(split.body).toMatchObject({
      reason: 'SPLIT',
      value: 'new',
      variant: 'new',
      metadata: { resolved_by: 'rollout', type: 'string' },
    });
    const dflt = await single('limit', {});
    // No published target: the flag's default value, served without evaluation.
    expect(dflt.body).toMatchObject({ key: 'limit', reason: 'STATIC', value: 20, variant: '20', metadata: { resolved_by: 'default' } });
    const json = await single('theme', {});
    expect(json.body).toMatchObject({
      reason: 'STATIC',
      value: { dense: false, primary: '#0055ff' },
      variant: '{"dense":false,"primary":"#0055ff"}',
    });
  });

  it('maps context members to attributes: strings, booleans, numbers, arrays; contextType picks the type', async () => {
    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ targetingKey: 'u', roles: ['billing', 'admin'] }, true],
      [{ targetingKey: 'u', seats: 250 }, true],
      [{ targetingKey: 'u', seats: 99 }, false],
      [{ targetingKey: 'u', beta: true }, true],
      [{ targetingKey: 'u', beta: false, plan: null }, false],
      [{ targetingKey: 'org-1', contextType: 'organization' }, true],
      [{ targetingKey: 'org-1' }, false],
      [{ targetingKey: 'u', nested: { plan: 'pro' } }, false],
      // The protocol sets no minimum length: an empty key is a context without an identifier.
      [{ targetingKey: '', plan: 'pro' }, true],
      [{ targetingKey: '' }, false],
    ];
    for (const [context, expected] of cases) {
      const res = await single('checkout', { context });
      expect(res.status, JSON.stringify(context)).toBe(200);
      expect(res.body.value, JSON.stringify(context)).toBe(expected);
    }
  });

  it('evaluates without a context for an empty body or an empty context; no body at all is a PARSE_ERROR, as the protocol requires one', async () => {
    const none = await app.request('POST', '/ofrep/v1/evaluate/flags/checkout', { apiKey: env.serverKey });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      key: 'checkout',
      errorCode: 'PARSE_ERROR',
      errorDetails: 'A request body is required, e.g. {"context": {"targetingKey": "user-42"}} or {}.',
    });
    // The bulk evaluation keeps evaluating without a context when there is no body.
    expect((await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: env.serverKey })).status).toBe(200);
    for (const body of [{}, { context: {} }, { context: {}, extra: 1 }]) {
      const res = await single('checkout', body);
      expect(res.status).toBe(200);
      expect(res.body.value).toBe(false);
    }
  });

  it("takes the protocol's re-fetch metadata on a bulk evaluation, refusing a flagConfigLastModified that is not a time", async () => {
    for (const query of [
      'flagConfigLastModified=1771622898',
      'flagConfigLastModified=2026-11-26T01:00:00Z',
      'flagConfigEtag=abc&flagConfigLastModified=0',
    ]) {
      const res = await app.request('POST', `/ofrep/v1/evaluate/flags?${query}`, { apiKey: env.serverKey, body: {} });
      expect(res.status, query).toBe(200);
    }
    for (const value of ['', 'yesterday', '-5', '1.5', '2026-13-01T10:00:00Z', '2026-11-26T24:00:00Z']) {
      const res = await app.request('POST', `/ofrep/v1/evaluate/flags?flagConfigLastModified=${encodeURIComponent(value)}`, {
        apiKey: env.serverKey,
        body: {},
      });
      expect(res.status, value).toBe(400);
      expect(res.body, value).toEqual({
        errorCode: 'PARSE_ERROR',
        errorDetails: 'flagConfigLastModified must be Unix seconds or a date-time.',
      });
    }
  });

  it('answers FLAG_NOT_FOUND (404) for unknown keys, keys that cannot name a flag, hidden and unavailable flags', async () => {
    for (const [key, apiKey] of [
      ['missing', env.serverKey],
      ['Not_A_Key', env.serverKey],
      ['nothing', env.serverKey],
      ['banner', mobileKey],
      ['limit', clientKey],
    ] as const) {
      const res = await single(key, { context: { targetingKey: 'u' } }, apiKey);
      expect(res.status, key).toBe(404);
      expect(res.body).toEqual({ key, errorCode: 'FLAG_NOT_FOUND', errorDetails: 'Feature flag not found.' });
    }
    const visible = await single('banner', {}, clientKey);
    expect(visible.status).toBe(200);
  });

  it('answers PARSE_ERROR, INVALID_CONTEXT and TARGETING_KEY_MISSING with 400', async () => {
    const cases: Array<[string, string]> = [
      ['{"context": ', 'PARSE_ERROR'],
      ['[1]', 'PARSE_ERROR'],
      ['"text"', 'PARSE_ERROR'],
      // Not JSON white space: not an empty body either.
      ['\f', 'PARSE_ERROR'],
      ['{"context": "user-1"}', 'INVALID_CONTEXT'],
      ['{"context": [1]}', 'INVALID_CONTEXT'],
      ['{"context": {"targetingKey": 42}}', 'INVALID_CONTEXT'],
      ['{"context": {"targetingKey": "u", "contextType": 7}}', 'INVALID_CONTEXT'],
      [`{"context": {"targetingKey": "${'x'.repeat(1001)}"}}`, 'INVALID_CONTEXT'],
      ['{"context": {"plan": "pro"}}', 'TARGETING_KEY_MISSING'],
    ];
    for (const [body, code] of cases) {
      const one = await raw('/ofrep/v1/evaluate/flags/checkout', body);
      expect(one.status, body).toBe(400);
      expect(one.body.key).toBe('checkout');
      expect(one.body.errorCode, body).toBe(code);
      expect(typeof one.body.errorDetails).toBe('string');
      const bulk = await raw('/ofrep/v1/evaluate/flags', body);
      expect(bulk.status, body).toBe(400);
      expect(bulk.body.errorCode, body).toBe(code);
      expect(bulk.body.key).toBeUndefined();
    }
  });

  it('answers 401 with an OFREP general error without a valid key; 415 and 413 likewise', async () => {
    for (const path of ['/ofrep/v1/evaluate/flags/checkout', '/ofrep/v1/evaluate/flags']) {
      const none = await app.request('POST', path, { body: {} });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ errorDetails: 'Invalid API key provided.' });
      expect(none.headers.get('www-authenticate')).toBe('ApiKey realm="vexil", header="X-API-Key"');
      const bad = await app.request('POST', path, { apiKey: 'srv_' + 'n'.repeat(40), body: {} });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toBe('ApiKey realm="vexil", header="X-API-Key"');
      const form = await raw(path, 'a=b', env.serverKey, 'text/plain');
      expect(form.status).toBe(415);
      expect(typeof form.body.errorDetails).toBe('string');
      const huge = await raw(path, JSON.stringify({ context: { targetingKey: 'u', big: 'x'.repeat(2_000_000) } }));
      expect(huge.status).toBe(413);
      expect(typeof huge.body.errorDetails).toBe('string');
    }
  });

  it('bulk-evaluates the flags the key may see, ordered by key, with an ETag and 304', async () => {
    const revision = 0;
    const res = await app.request('POST', '/ofrep/v1/evaluate/flags', {
      apiKey: env.serverKey,
      body: { context: { targetingKey: 'user-1', plan: 'pro' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.flags.map((f: { key: string }) => f.key)).toEqual(['banner', 'checkout', 'limit', 'split', 'theme']);
    expect(res.body.flags[1]).toEqual({
      key: 'checkout',
      reason: 'TARGETING_MATCH',
      variant: 'true',
      value: true,
      metadata: { resolved_by: 'rule', type: 'boolean', revision },
    });
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"ofrep-\d+-[0-9a-f]{8}"$/);
    const again = await app.request('POST', '/ofrep/v1/evaluate/flags', {
      apiKey: env.serverKey,
      body: { context: { targetingKey: 'user-1', plan: 'pro' } },
      headers: { 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    expect(again.headers.get('vary')).toBe('X-VEXIL-API-KEY, X-API-KEY, X-VEXIL-KEY');
    // `*` never matches: this context was never evaluated by the client.
    const star = await app.request('POST', '/ofrep/v1/evaluate/flags', {
      apiKey: env.serverKey,
      body: { context: { targetingKey: 'never-seen' } },
      headers: { 'If-None-Match': '*' },
    });
    expect(star.status).toBe(200);
    expect(star.body.flags.length).toBeGreaterThan(0);
    const otherContext = await app.request('POST', '/ofrep/v1/evaluate/flags', {
      apiKey: env.serverKey,
      body: { context: { targetingKey: 'user-2' } },
      headers: { 'If-None-Match': etag },
    });
    expect(otherContext.status).toBe(200);
    expect(otherContext.headers.get('etag')).not.toBe(etag);

    const mobile = await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: mobileKey, body: {} });
    expect(mobile.body.flags.map((f: { key: string }) => f.key)).toEqual(['checkout', 'limit', 'split', 'theme']);
    const client = await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: clientKey });
    expect(client.body.flags.map((f: { key: string }) => f.key)).toEqual(['banner', 'checkout', 'split', 'theme']);
    expect(client.headers.get('etag')).not.toBe(mobile.headers.get('etag'));
  });

  it('marks both 200s private and revalidated, varying on the key headers', async () => {
    for (const path of ['/ofrep/v1/evaluate/flags/checkout', '/ofrep/v1/evaluate/flags']) {
      const answer = await app.request('POST', path, { apiKey: env.serverKey, body: {} });
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('cache-control'), path).toBe('private, no-cache');
      expect(answer.headers.get('vary'), path).toBe('X-VEXIL-API-KEY, X-API-KEY, X-VEXIL-KEY');
    }
  });

  it('audits both OFREP evaluations as flag.evaluated (a server-side evaluation)', async () => {
    await app.composition.publicAudit.flush();
    const since = await app.knex('public_audit_entries').max({ ulid: 'ulid' }).first();
    await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: env.serverKey, body: {} });
    await app.request('POST', '/ofrep/v1/evaluate/flags/checkout', { apiKey: env.serverKey, body: {} });
    await app.composition.publicAudit.flush();
    const rows: Array<{ http_path: string; action: string }> = await app
      .knex('public_audit_entries')
      .where('ulid', '>', since?.ulid ?? '')
      .whereIn('http_path', ['/ofrep/v1/evaluate/flags', '/ofrep/v1/evaluate/flags/checkout'])
      .select('http_path', 'action');
    expect(new Set(rows.map((r) => r.action))).toEqual(new Set(['flag.evaluated']));
    expect(new Set(rows.map((r) => r.http_path))).toEqual(new Set(['/ofrep/v1/evaluate/flags', '/ofrep/v1/evaluate/flags/checkout']));
  });

  it('reports each flag’s own revision: a change to one flag (or to a segment it uses) moves only its revision', async () => {
    const p = `/projects/ofrep-rev-${db.name}-${Date.now().toString(36)}`;
    await expectOk(app, 'POST', '/projects', {
      key: p.slice('/projects/'.length),
      name: 'Revisions',
      environments: [{ key: 'production', name: 'Production' }],
    });
    const serverKey: string = (await expectOk(app, 'POST', `${p}/environments/production/keys`, { kind: 'server' })).key;
    for (const key of ['alpha', 'beta', 'gamma']) await expectOk(app, 'POST', `${p}/flags`, { key, name: key, type: 'boolean' });
    const revisions = async () => {
      const res = await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: serverKey, body: { context: { targetingKey: 'u' } } });
      expect(res.status).toBe(200);
      return Object.fromEntries(res.body.flags.map((f: { key: string; metadata: { revision: number } }) => [f.key, f.metadata.revision]));
    };
    const environmentRevision = async () => {
      const row = await app
        .knex('environments')
        .join('projects', 'projects.ulid', 'environments.project_ulid')
        .where('projects.key', p.slice('/projects/'.length))
        .first('environments.revision as revision');
      return Number(row.revision);
    };

    const first = await revisions();
    expect(first.alpha).toBeLessThan(first.beta);
    expect(first.beta).toBeLessThan(first.gamma);

    await expectOk(app, 'PUT', `${p}/flags/beta`, { name: 'Beta renamed', permanent: false });
    const afterRename = await revisions();
    expect(afterRename).toEqual({ ...first, beta: await environmentRevision() });
    const single = await app.request('POST', '/ofrep/v1/evaluate/flags/beta', { apiKey: serverKey, body: {} });
    expect(single.body.metadata.revision).toBe(afterRename.beta);

    // alpha's published rules use a segment: a change to the segment moves alpha, not the others.
    await expectOk(app, 'POST', `${p}/segments`, { key: 'testers', name: 'Testers', included: ['u'] });
    const values: Array<{ ulid: string; display: string }> = await expectOk(app, 'GET', `${p}/flags/alpha/values`);
    const trueValue = values.find((v) => v.display === 'true')!.ulid;
    const draft = await expectOk(app, 'POST', `${p}/flags/alpha/environments/production/targets`);
    const targetPath = `${p}/flags/alpha/environments/production/targets/${draft.ulid}`;
    await expectOk(app, 'POST', `${targetPath}/rules`, {
      value_ulid: trueValue,
      description: 'Testers',
      criteria: [{ selector: 'segment', comparer: 'in', values: ['testers'] }],
    });
    await expectOk(app, 'PUT', `${targetPath}/publish`, {});
    const published = await revisions();
    expect(published).toEqual({ ...afterRename, alpha: await environmentRevision() });
    await expectOk(app, 'PUT', `${p}/segments/testers`, { name: 'Testers', included: ['someone-else'] });
    const afterSegment = await revisions();
    expect(afterSegment).toEqual({ ...published, alpha: await environmentRevision() });
    expect(afterSegment.alpha).toBeGreaterThan(published.alpha);

    // Another instance, loading the environment whole from the database, reports the same revisions.
    const other = await startTestApp(db, { databaseUrl: app.composition.core.config.databaseUrl, keepDatabase: true });
    try {
      const res = await other.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: serverKey, body: { context: { targetingKey: 'u' } } });
      expect(
        Object.fromEntries(res.body.flags.map((f: { key: string; metadata: { revision: number } }) => [f.key, f.metadata.revision])),
      ).toEqual(afterSegment);
    } finally {
      await other.close();
    }
  });

  it('counts OFREP evaluations in the flag telemetry', async () => {
    await fx.flushTelemetry();
    const flag = await app.knex('flags').where({ project_ulid: project.ulid, key: 'theme' }).first('ulid');
    const before = await app.knex('flag_telemetry').where({ flag_ulid: flag.ulid, environment_ulid: env.ulid }).first();
    await single('theme', {});
    await fx.flushTelemetry();
    const after = await app.knex('flag_telemetry').where({ flag_ulid: flag.ulid, environment_ulid: env.ulid }).first();
    expect(Number(after.evaluated_count)).toBe(Number(before?.evaluated_count ?? 0) + 1);
    expect(after.last_evaluated_at).not.toBeNull();
  });
});
