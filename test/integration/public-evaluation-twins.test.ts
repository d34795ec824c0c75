import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, contextHeader, type EnvironmentFixture, type FlagFixture, type ProjectFixture } from './public-fixtures.js';

const invalidContext = { status: 'error', message: 'Context was supplied but is invalid.', code: 'bad_request' };
const invalidDefaults = { status: 'error', message: 'Default values were supplied but are invalid.', code: 'bad_request' };
const notJson = { status: 'error', message: 'Request body is not valid JSON.', code: 'bad_request' };
const invalidBody = { status: 'error', message: 'Request body is invalid.', code: 'bad_request' };

interface Inputs {
  context?: unknown;
  default_values?: unknown;
}

/** The context and default-value headers carrying `inputs` (the header form of the twins' body). */
function headersOf(inputs: Inputs): Record<string, string> {
  const headers: Record<string, string> = {};
  if (inputs.context !== undefined) headers['X-VEXIL-CONTEXT'] = contextHeader(inputs.context);
  if (inputs.default_values !== undefined) headers['X-VEXIL-DEFAULT-VALUE'] = JSON.stringify(inputs.default_values);
  return headers;
}

/**
 * The POST twins of the header operations (specs/public.yaml: POST /v1/flags/evaluate,
 * POST /v1/flags/{flagKey}/evaluate, POST /v1/payload): the same inputs in a body give the same
 * answers, telemetry and audit entries as in the headers.
 */
describeEachDatabase('public evaluation twins: context and default values in a body', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;
  let mobileKey: string;
  let clientKey: string;
  let checkout: FlagFixture;

  const de = { type: 'user', identifier: 'user-1', attributes: [{ key: 'country', values: [{ value: 'DE' }] }] };
  const member = { type: 'user', identifier: 'user-7', name: 'Ada' };
  const declared = [
    { key: 'empty', type: 'string', value: 'declared' },
    { key: 'ghost', type: 'json', value: { nested: [1, { deep: null }] } },
  ];
  const inputCases: Inputs[] = [
    {},
    { context: de },
    { context: member },
    { default_values: declared },
    { default_values: [{ key: 'empty', type: 'number', value: 3 }] },
    { context: de, default_values: declared },
    { default_values: [] },
  ];

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    ({ project, env, mobileKey, clientKey } = await fx.keyedEnvironment('production'));
    checkout = await fx.flag(project, { key: 'checkout', type: 'boolean', name: 'New checkout' });
    const banner = await fx.flag(project, { key: 'banner', type: 'string', values: ['Welcome', 'Hello beta'], defaultValue: 'Welcome' });
    await fx.flag(project, { key: 'empty', type: 'string', values: [], defaultValue: null });
    const beta = await fx.segment(project, { key: 'beta', included: ['user-7'], rules: [] });
    await fx.publish(env, checkout, {
      value: 'true',
      rules: [{ value: 'false', criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'in', values: ['DE'] }] }],
    });
    await fx.publish(env, banner, {
      value: 'Welcome',
      rules: [{ value: 'Hello beta', criteria: [{ selector: 'segment', comparer: 'in', values: [beta] }] }],
    });
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('evaluates every flag and one flag exactly as the header operations do', async () => {
    for (const inputs of inputCases) {
      const label = JSON.stringify(inputs);
      const list = await app.request('GET', '/v1/flags', { apiKey: env.serverKey, headers: headersOf(inputs) });
      const listTwin = await app.request('POST', '/v1/flags/evaluate', { apiKey: env.serverKey, body: inputs });
      expect(listTwin.status, label).toBe(200);
      expect(listTwin.body, label).toEqual(list.body);
      for (const key of ['checkout', 'banner', 'empty', 'ghost', 'nope']) {
        const one = await app.request('GET', `/v1/flags/${key}`, { apiKey: env.serverKey, headers: headersOf(inputs) });
        const oneTwin = await app.request('POST', `/v1/flags/${key}/evaluate`, { apiKey: env.serverKey, body: inputs });
        expect([oneTwin.status, oneTwin.body], `${key} ${label}`).toEqual([one.status, one.body]);
      }
    }
    // The rules really saw the inputs (not only the same answer twice).
    const ruled = await app.request('POST', '/v1/flags/checkout/evaluate', { apiKey: env.serverKey, body: { context: de } });
    expect(ruled.body.data.flag.value).toEqual({ boolean: false });
    const segment = await app.request('POST', '/v1/flags/banner/evaluate', { apiKey: env.serverKey, body: { context: member } });
    expect(segment.body.data.flag.value).toEqual({ string: 'Hello beta' });
    const served = await app.request('POST', '/v1/flags/ghost/evaluate', { apiKey: env.serverKey, body: { default_values: declared } });
    expect(served.status).toBe(404);
    const empty = await app.request('POST', '/v1/flags/empty/evaluate', { apiKey: env.serverKey, body: { default_values: declared } });
    expect(empty.body.data.flag).toEqual({ key: 'empty', name: 'Flag empty', type: 'string', value: { string: 'declared' } });
  });

  it('evaluates without a context and without defaults when there is no body', async () => {
    const plain = await app.request('GET', '/v1/flags', { apiKey: env.serverKey });
    const noBody = await app.request('POST', '/v1/flags/evaluate', { apiKey: env.serverKey });
    expect(noBody.status).toBe(200);
    expect(noBody.body).toEqual(plain.body);
    const one = await app.request('POST', '/v1/flags/checkout/evaluate', { apiKey: env.serverKey });
    expect(one.body.data.flag.value).toEqual({ boolean: true });
  });

  it('reads only the body: context and default-value headers sent to a twin are ignored', async () => {
    const res = await app.request('POST', '/v1/flags/checkout/evaluate', {
      apiKey: env.serverKey,
      headers: { 'X-VEXIL-CONTEXT': contextHeader(de), D: 'not json' },
      body: {},
    });
    expect(res.status).toBe(200);
    expect(res.body.data.flag.value).toEqual({ boolean: true });
  });

  it('serves the payload exactly as GET /v1/payload does, with the same ETag and 304', async () => {
    for (const key of [mobileKey, clientKey]) {
      for (const inputs of inputCases) {
        const label = `${key.slice(0, 4)} ${JSON.stringify(inputs)}`;
        const get = await app.request('GET', '/v1/payload', { apiKey: key, headers: headersOf(inputs) });
        const twin = await app.request('POST', '/v1/payload', { apiKey: key, body: inputs });
        expect(twin.status, label).toBe(200);
        expect(twin.body, label).toEqual(get.body);
        expect(twin.headers.get('etag'), label).toBe(get.headers.get('etag'));
        const again = await app.request('POST', '/v1/payload', {
          apiKey: key,
          body: inputs,
          headers: { 'If-None-Match': twin.headers.get('etag')! },
        });
        expect(again.status, label).toBe(304);
        expect(again.body).toBe('');
      }
    }
    const ruled = await app.request('POST', '/v1/payload', { apiKey: clientKey, body: { context: de } });
    expect(ruled.body.data.flags.find((f: { key: string }) => f.key === 'checkout')).toMatchObject({ value: false, resolved_by: 'rule' });
    // A server key gets the compiled configuration; its body is checked but not used.
    const server = await app.request('POST', '/v1/payload', { apiKey: env.serverKey, body: { context: de } });
    const serverGet = await app.request('GET', '/v1/payload', { apiKey: env.serverKey });
    expect(server.body).toEqual(serverGet.body);
    expect(server.headers.get('etag')).toBe(serverGet.headers.get('etag'));
    const serverBad = await app.request('POST', '/v1/payload', { apiKey: env.serverKey, body: { context: { type: 'user' } } });
    expect(serverBad.status).toBe(400);
    expect(serverBad.body).toEqual(invalidContext);
  });

  it('answers the header operations’ 400s for an invalid context or invalid default values', async () => {
    const badContexts: unknown[] = [
      null,
      [],
      'user',
      { type: 'user' },
      { type: '', identifier: 'u' },
      { type: 'user', identifier: 'u', extra: 1 },
      { type: 'user', identifier: 'u', attributes: [{ key: 'a', values: ['x'] }] },
      { type: 'user', identifier: 'x'.repeat(1001) },
    ];
    const badDefaults: unknown[] = [
      {},
      'nope',
      [{ key: 'x', type: 'boolean' }],
      [{ key: 'x', type: 'boolean', value: 'true' }],
      [{ key: 'x', type: 'number', value: '1' }],
      [{ key: 'x', type: 'string', value: 1 }],
      [{ key: 'x', type: 'date', value: 1 }],
      [{ key: '', type: 'json', value: 1 }],
      [{ key: 'x', type: 'json', value: 1, more: true }],
    ];
    const cases: Array<[Inputs, unknown]> = [
      ...badContexts.map((context): [Inputs, unknown] => [{ context }, invalidContext]),
      ...badDefaults.map((defaults): [Inputs, unknown] => [{ default_values: defaults }, invalidDefaults]),
      // Both invalid: the context is checked first, as with the headers.
      [{ context: { type: 'user' }, default_values: 'nope' }, invalidContext],
    ];
    for (const [path, key] of [
      ['/v1/flags/evaluate', env.serverKey],
      ['/v1/flags/checkout/evaluate', env.serverKey],
      ['/v1/payload', clientKey],
    ] as const) {
      for (const [body, expected] of cases) {
        const res = await app.request('POST', path, { apiKey: key, body });
        expect([res.status, res.body], `${path} ${JSON.stringify(body)}`).toEqual([400, expected]);
      }
      const malformed = await app.request('POST', path, {
        apiKey: key,
        rawBody: '{"context":',
        headers: { 'content-type': 'application/json' },
      });
      expect([malformed.status, malformed.body], path).toEqual([400, notJson]);
      const extra = await app.request('POST', path, { apiKey: key, body: { context: de, defaults: [] } });
      expect([extra.status, extra.body], path).toEqual([400, invalidBody]);
      const notAnObject = await app.request('POST', path, { apiKey: key, body: [de] });
      expect([notAnObject.status, notAnObject.body], path).toEqual([400, invalidBody]);
      const text = await app.request('POST', path, { apiKey: key, rawBody: 'context', headers: { 'content-type': 'text/plain' } });
      expect(text.status, path).toBe(415);
    }
  });

  it('needs a server key to evaluate, any key for the payload; 404 as GET /v1/flags/{flagKey}', async () => {
    for (const [key, code] of [
      [mobileKey, 'key_kind_not_allowed'],
      [clientKey, 'key_kind_not_allowed'],
      ['srv_' + 'a'.repeat(40), 'invalid_api_key'],
    ] as const) {
      for (const path of ['/v1/flags/evaluate', '/v1/flags/checkout/evaluate']) {
        const res = await app.request('POST', path, { apiKey: key, body: {} });
        expect(res.status, `${path} ${key.slice(0, 4)}`).toBe(401);
        expect(res.body.code).toBe(code);
      }
    }
    expect((await app.request('POST', '/v1/flags/evaluate', { body: {} })).status).toBe(401);
    expect((await app.request('POST', '/v1/payload', { apiKey: mobileKey, body: {} })).status).toBe(200);
    for (const key of ['nope', 'Upper', 'a'.repeat(201)]) {
      const res = await app.request('POST', `/v1/flags/${key}/evaluate`, { apiKey: env.serverKey, body: {} });
      expect([res.status, res.body], key).toEqual([404, { status: 'error', message: 'Feature flag not found.', code: 'not_found' }]);
    }
  });

  it('records the same telemetry and audit entries as the header operations', async () => {
    const telemetry = async () => {
      await fx.flushTelemetry();
      const row = await app.knex('flag_telemetry').where({ flag_ulid: checkout.ulid, environment_ulid: env.ulid }).first();
      return { evaluated: Number(row?.evaluated_count ?? 0), retrieved: Number(row?.retrieved_count ?? 0) };
    };
    const before = await telemetry();
    await app.request('POST', '/v1/flags/evaluate', { apiKey: env.serverKey, body: {} });
    await app.request('POST', '/v1/flags/checkout/evaluate', { apiKey: env.serverKey, body: {} });
    await app.request('POST', '/v1/payload', { apiKey: clientKey, body: { context: member } });
    const after = await telemetry();
    expect(after).toEqual({ evaluated: before.evaluated + 2, retrieved: before.retrieved + 1 });

    // Declared defaults and contexts feed the insights as the headers do.
    await app.request('POST', '/v1/flags/evaluate', {
      apiKey: env.serverKey,
      body: {
        context: { type: 'robot', identifier: 'r-1', attributes: [{ key: 'firmware', values: [{ value: '7.1' }] }] },
        default_values: [{ key: 'phantom', type: 'boolean', value: true }],
      },
    });
    await fx.flushTelemetry();
    const reports = await app.mgmt('GET', `/projects/${project.key}/environments/${env.key}/default-value-reports`);
    expect(reports.body.data.unknown_flags).toContainEqual({
      flag_key: 'phantom',
      declared_type: 'boolean',
      count: 1,
      last_seen_at: expect.any(String),
    });
    const attributes = await app.mgmt('GET', `/projects/${project.key}/environments/${env.key}/context-attributes`);
    expect(attributes.body.data.context_types).toContainEqual({ type: 'robot', count: 1 });
    expect(attributes.body.data.attributes).toContainEqual({ key: 'firmware', count: 1, values: [{ value: '7.1', count: 1 }] });

    await app.composition.publicAudit.flush();
    const audited = await app.knex('public_audit_entries').where({ environment_ulid: env.ulid, http_method: 'POST' }).orderBy('ulid');
    const byPath = (path: string) => audited.filter((row) => row.http_path === path);
    expect(byPath('/v1/flags/checkout/evaluate').at(-1)).toMatchObject({
      action: 'flag.evaluated',
      subject_type: 'flag',
      subject_ulid: checkout.ulid,
      subject_label: 'checkout',
      result: 'success',
      status_code: 200,
    });
    expect(byPath('/v1/flags/evaluate').at(-1)).toMatchObject({
      action: 'flag.evaluated',
      subject_type: 'environment',
      subject_ulid: env.ulid,
    });
    expect(byPath('/v1/payload').at(-1)).toMatchObject({ action: 'payload.retrieved', result: 'success', actor_type: 'sdk_key' });
  });
});
