import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures } from './public-fixtures.js';

/**
 * Keys and attribute names that are also members of Object.prototype (`constructor`,
 * `__proto__`, `toString`) are ordinary names everywhere: managed, published, evaluated,
 * observed and exported like any other.
 */
describeEachDatabase('names that are Object.prototype members', (db) => {
  let source: TestApp;
  let target: TestApp;
  const ok = (method: string, path: string, body?: unknown) => expectOk(source, method, path, body);
  const p = '/projects/constructor';
  let serverKey: string;

  beforeAll(async () => {
    source = await startTestApp(db);
    target = await startTestApp(db);
    await ok('POST', '/projects', { key: 'constructor', name: 'Constructor', environments: [{ key: 'constructor', name: 'Constructor' }] });
    await ok('POST', `${p}/segments`, {
      key: 'constructor',
      name: 'Constructor',
      rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'toString', comparer: 'equal', values: ['yes'] }] }],
    });
    await ok('POST', `${p}/flags`, { key: 'constructor', name: 'Constructor', type: 'string' });
    await ok('POST', `${p}/flags/constructor/values`, { display: 'plain' });
    const proto = await ok('POST', `${p}/flags/constructor/values`, { display: '__proto__' });
    const ctor = await ok('POST', `${p}/flags/constructor/values`, { display: 'constructor' });
    const draft = await ok('POST', `${p}/flags/constructor/environments/constructor/targets`);
    const targetPath = `${p}/flags/constructor/environments/constructor/targets/${draft.ulid}`;
    await ok('POST', `${targetPath}/rules`, {
      value_ulid: proto.ulid,
      description: 'Proto',
      criteria: [{ selector: 'attribute', sub_selector: '__proto__', comparer: 'equal', values: ['x'] }],
    });
    await ok('POST', `${targetPath}/rules`, {
      value_ulid: ctor.ulid,
      description: 'Ctor',
      criteria: [{ selector: 'segment', comparer: 'in', values: ['constructor'] }],
    });
    await ok('PUT', `${targetPath}/publish`, {});
    serverKey = (await ok('POST', `${p}/environments/constructor/keys`, { kind: 'server' })).key;
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  const attribute = (key: string, value: string) => ({ type: 'user', identifier: 'u-1', attributes: [{ key, values: [{ value }] }] });

  it('evaluates rules on attributes named __proto__ and toString, in the header and in an OFREP body', async () => {
    const evaluate = async (context: unknown) => {
      const res = await source.request('GET', '/v1/flags/constructor', {
        apiKey: serverKey,
        headers: { 'x-vexil-context': JSON.stringify(context) },
      });
      expect(res.status).toBe(200);
      return res.body.data.flag.value;
    };
    expect(await evaluate(attribute('__proto__', 'x'))).toEqual({ string: '__proto__' });
    expect(await evaluate(attribute('toString', 'yes'))).toEqual({ string: 'constructor' });
    expect(await evaluate(attribute('constructor', 'x'))).toEqual({ string: 'plain' });

    const ofrep = (rawBody: string) =>
      source.request('POST', '/ofrep/v1/evaluate/flags/constructor', {
        apiKey: serverKey,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
    const proto = await ofrep('{"context":{"targetingKey":"u-1","__proto__":"x"},"__proto__":{"ignored":true}}');
    expect(proto.status).toBe(200);
    expect(proto.body).toMatchObject({ key: 'constructor', value: '__proto__', reason: 'TARGETING_MATCH' });
    const toString = await ofrep('{"context":{"targetingKey":"u-1","toString":"yes","constructor":{"prototype":{}}}}');
    expect(toString.body).toMatchObject({ value: 'constructor', reason: 'TARGETING_MATCH' });
    expect(({} as Record<string, unknown>).ignored).toBeUndefined();
  });

  it('lists attributes named __proto__ and constructor among the observed ones', async () => {
    for (const key of ['__proto__', 'constructor']) {
      const res = await source.request('GET', '/v1/flags', {
        apiKey: serverKey,
        headers: { 'x-vexil-context': JSON.stringify(attribute(key, 'seen')) },
      });
      expect(res.status).toBe(200);
    }
    await new Fixtures(source).flushTelemetry();
    const observed = await ok('GET', `${p}/environments/constructor/context-attributes`);
    expect(JSON.stringify(observed)).toContain('"__proto__"');
    expect(JSON.stringify(observed)).toContain('"constructor"');
  });

  it('exports, plans and applies a project, environment, segment and flag all keyed constructor', async () => {
    const file = (await source.mgmt('GET', `${p}/configuration`)).body;
    const plan = await expectOk(target, 'POST', `${p}/configuration/plan`, file);
    expect(plan.changes.length).toBeGreaterThan(0);
    await expectOk(target, 'POST', `${p}/configuration/apply`, file);
    expect((await target.mgmt('GET', `${p}/configuration`)).body).toEqual(file);
    expect((await expectOk(target, 'POST', `${p}/configuration/plan`, file)).changes).toEqual([]);
  });
});
