import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_JSON_INPUT_DEPTH } from '../../src/http/json-depth.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, type EnvironmentFixture, type ProjectFixture } from './public-fixtures.js';

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepContext = (depth: number) =>
  `{"type":"user","identifier":"u1","attributes":[{"key":"a","values":[{"value":${JSON.stringify('x')}}]}],"x":${nestedArrays(depth)}}`;

// Every JSON input has one depth limit, checked before it is read: too deep is a 400 or 422 in
// the documented shape, never a 500 (a stack overflow while reading it).
describeEachDatabase('JSON inputs nested too deep', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let project: ProjectFixture;
  let env: EnvironmentFixture;

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    ({ project, env } = await fx.keyedEnvironment());
    await fx.flag(project, { key: 'checkout', type: 'boolean' });
    // The keys are written straight to the database: wait until this instance serves them.
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('an OFREP body whose context nests 5,000 arrays is a 400 in OFREP shape', async () => {
    for (const path of ['/ofrep/v1/evaluate/flags/checkout', '/ofrep/v1/evaluate/flags']) {
      const res = await app.request('POST', path, {
        apiKey: env.serverKey,
        rawBody: `{"context":{"targetingKey":"u1","deep":${nestedArrays(5000)}}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, path).toBe(400);
      // The public document: JSON nested deeper than the limit counts as not valid JSON.
      expect(res.body).toMatchObject({ errorCode: 'PARSE_ERROR', errorDetails: 'Request body is not valid JSON.' });
    }
  });

  it('a management or evaluation body nested too deep is a 400 in the standard envelope', async () => {
    const deepBody = { rawBody: `{"context":${nestedArrays(5000)}}`, headers: { 'content-type': 'application/json' } };
    const management = await app.request('POST', '/management/v1/projects', { token: app.ownerToken, ...deepBody });
    expect(management.status).toBe(400);
    expect(management.body).toEqual({
      status: 'error',
      message: `Request body nests arrays and objects more than ${MAX_JSON_INPUT_DEPTH} levels deep.`,
      code: 'bad_request',
    });
    for (const path of ['/v1/flags/evaluate', '/v1/flags/checkout/evaluate', '/v1/payload', '/v1/flags/checkout/usage']) {
      const res = await app.request('POST', path, { apiKey: env.serverKey, ...deepBody });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ status: 'error', message: 'Request body is not valid JSON.', code: 'bad_request' });
    }
    // At the limit the body is read (and judged by its schema as usual).
    const atLimit = await app.request('POST', '/management/v1/projects', {
      token: app.ownerToken,
      rawBody: `{"x":${nestedArrays(MAX_JSON_INPUT_DEPTH - 1)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(atLimit.status).toBe(422);
  });

  it('context and default-value headers nested too deep are a 400', async () => {
    for (const [header, message] of [
      ['x-vexil-context', /context/i],
      ['x-vexil-default-value', /Default values/],
    ] as const) {
      const res = await app.request('GET', '/v1/flags/checkout', {
        apiKey: env.serverKey,
        headers: { [header]: header.includes('context') ? deepContext(5000) : `[${nestedArrays(5000)}]` },
      });
      expect(res.status, header).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', code: 'bad_request', message: expect.stringMatching(message) });
    }
  });

  it('the management context query value nested too deep is a 422', async () => {
    const res = await app.mgmt(
      'GET',
      `/projects/${project.key}/flags/checkout/environments/${env.key}/evaluate?context=${encodeURIComponent(deepContext(3000))}`,
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 'error' });
  });
});
