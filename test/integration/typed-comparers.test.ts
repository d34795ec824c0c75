/**
 * The semver, date and regular-expression comparers through the management API (values checked
 * at write time, field by field, in targeting rules and segment rules) and through /v1 and OFREP
 * (a published rule evaluated for contexts whose attributes are valid, invalid or absent).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';

const FLAG = '/projects/apps/flags/new-ui';
const ENV = `${FLAG}/environments/production`;

describeEachDatabase('semver, date and regex comparers', (db) => {
  let app: TestApp;
  let valOn: string;
  let serverKey: string;

  beforeAll(async () => {
    app = await startTestApp(db);
    expect((await app.mgmt('POST', '/projects', { key: 'apps', name: 'Apps' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects/apps/flags', { key: 'new-ui', name: 'New UI', type: 'boolean' })).status).toBe(200);
    const values = (await app.mgmt('GET', `${FLAG}/values`)).body.data as { ulid: string; display: string }[];
    valOn = values.find((v) => v.display === 'true')!.ulid;
    serverKey = (await app.mgmt('POST', '/projects/apps/environments/production/keys', { kind: 'server' })).body.data.key;
  });
  afterAll(async () => {
    await app?.close();
  });

  const criterion = (comparer: string, values: string[], sub = 'app_version') => ({
    selector: 'attribute',
    sub_selector: sub,
    comparer,
    values,
  });
  const rule = (criteria: unknown[]) => ({ value_ulid: valOn, description: 'typed', criteria });

  async function draft(): Promise<string> {
    const res = await app.mgmt('POST', `${ENV}/targets`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.ulid;
  }

  function expectFields(res: ApiResponse, fields: string[]): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
  }

  it('refuses values the comparer cannot read, naming each one, and writes nothing', async () => {
    const target = await draft();
    const rulesBefore = await app.knex('rules').count({ n: '*' });
    const cases: [unknown, string[]][] = [
      [criterion('semver_eq', ['1.2.3', '1.2', 'v1.0.0', '01.0.0']), ['criteria.0.values.1', 'criteria.0.values.3']],
      [criterion('semver_gte', ['latest']), ['criteria.0.values.0']],
      [criterion('before', ['2026-01-01T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00']), ['criteria.0.values.1', 'criteria.0.values.2']],
      [criterion('after', ['2026-02-30T00:00:00Z']), ['criteria.0.values.0']],
      [
        criterion('matches', ['^ok$', '(a)\\1', '(?=x)', '[a-', 'x'.repeat(501)]),
        ['criteria.0.values.1', 'criteria.0.values.2', 'criteria.0.values.3', 'criteria.0.values.4'],
      ],
      [criterion('matches', ['a{1001}']), ['criteria.0.values.0']],
      [{ selector: 'context', comparer: 'semver_eq', values: ['1.0.0'] }, ['criteria.0.comparer']],
      [{ selector: 'segment', comparer: 'matches', values: ['x'] }, ['criteria.0.comparer', 'criteria.0.values.0']],
      [criterion('after', []), ['criteria.0.values']],
    ];
    for (const [c, fields] of cases) {
      const res = await app.mgmt('POST', `${ENV}/targets/${target}/rules`, rule([c]));
      expectFields(res, fields);
    }
    expect(await app.knex('rules').count({ n: '*' })).toEqual(rulesBefore);
  });

  it('refuses the same values in segment rules', async () => {
    const res = await app.mgmt('POST', '/projects/apps/segments', {
      key: 'old-apps',
      name: 'Old apps',
      rules: [{ criteria: [criterion('semver_lt', ['2.0'])] }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['rules.0.criteria.0.values.0']);
    expect(await app.knex('segments').where('key', 'old-apps').first()).toBeUndefined();
  });

  it('stores valid criteria as written and evaluates them through /v1 and OFREP', async () => {
    const target = await draft();
    const created = await app.mgmt(
      'POST',
      `${ENV}/targets/${target}/rules`,
      rule([
        criterion('semver_gte', ['v2.0.0-rc.1']),
        criterion('before', ['2030-01-01T00:00:00+02:00'], 'signed_up'),
        criterion('matches', ['^[a-z]+@example\\.com$', 'x{2,3}'], 'email'),
      ]),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(
      created.body.data.criteria.data.map((c: { comparer: string; values: { data: { value: string }[] } }) => [
        c.comparer,
        c.values.data.map((v) => v.value),
      ]),
    ).toEqual([
      ['semver_gte', ['v2.0.0-rc.1']],
      ['before', ['2030-01-01T00:00:00+02:00']],
      ['matches', ['^[a-z]+@example\\.com$', 'x{2,3}']],
    ]);
    const published = await app.mgmt('PUT', `${ENV}/targets/${target}/publish`, { comment: 'typed comparers' });
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    const context = (version: string, date: string, email: string) => ({
      type: 'user',
      identifier: 'u-1',
      attributes: [
        { key: 'app_version', values: [{ value: version }] },
        { key: 'signed_up', values: [{ value: date }] },
        { key: 'email', values: [{ value: email }] },
      ],
    });
    const cases: [ReturnType<typeof context>, boolean][] = [
      [context('2.0.0', '2029-12-31T22:59:59+01:00', 'ann@example.com'), true],
      [context('2.0.0-rc.2', '2029-12-31T21:59:59Z', 'ann@example.com'), true],
      [context('2.0.0-beta.9', '2029-12-31T21:00:00Z', 'ann@example.com'), false],
      [context('2.0', '2029-12-31T21:00:00Z', 'ann@example.com'), false],
      // 2030-01-01T00:00:00+02:00 is 2029-12-31T22:00:00Z: that instant is not before itself
      [context('3.0.0', '2029-12-31T22:00:00Z', 'ann@example.com'), false],
      [context('3.0.0', 'yesterday', 'ann@example.com'), false],
      [context('3.0.0', '2020-01-01T00:00:00Z', 'Ann@example.com'), false],
      [context('3.0.0', '2020-01-01T00:00:00Z', 'xx'), true],
    ];
    for (const [ctx, hit] of cases) {
      const res = await app.request('POST', '/v1/flags/new-ui/evaluate', { apiKey: serverKey, body: { context: ctx } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.flag.value, JSON.stringify(ctx)).toEqual({ boolean: hit });
      const ofrep = await app.request('POST', '/ofrep/v1/evaluate/flags/new-ui', {
        apiKey: serverKey,
        body: { context: { targetingKey: 'u-1', ...Object.fromEntries(ctx.attributes.map((a) => [a.key, a.values[0]!.value])) } },
      });
      expect(ofrep.status, JSON.stringify(ofrep.body)).toBe(200);
      expect(ofrep.body.reason).toBe(hit ? 'TARGETING_MATCH' : 'STATIC');
    }
  });

  it('counts attribute values that are not versions or date-times in /metrics', async () => {
    const read = async () => {
      const text = (await app.request('GET', '/metrics')).body as unknown as string;
      const line = (kind: string) =>
        text.split('\n').find((l) => l.startsWith(`vexil_evaluation_unreadable_attribute_values_total{kind="${kind}"}`));
      return { version: Number(line('version')?.split(' ')[1]), date: Number(line('date')?.split(' ')[1]) };
    };
    const before = await read();
    const res = await app.request('POST', '/v1/flags/new-ui/evaluate', {
      apiKey: serverKey,
      body: { context: { type: 'user', identifier: 'u-2', attributes: [{ key: 'app_version', values: [{ value: 'not-a-version' }] }] } },
    });
    expect(res.status).toBe(200);
    const after = await read();
    expect(after.version).toBeGreaterThan(before.version);
  });
});
