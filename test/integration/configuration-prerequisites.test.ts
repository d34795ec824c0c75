/**
 * Prerequisites in flags as code: export writes them (and leaves them out when there are none),
 * plan compares them, apply and promote set exactly those of the file, and a file naming an
 * unknown flag or value is refused with the path inside the file.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';

describeEachDatabase('flags as code: prerequisites', (db) => {
  let app: TestApp;
  const P = '/projects/cfg';

  async function ok(res: Promise<ApiResponse>): Promise<any> {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  }
  const exported = async () => (await app.mgmt('GET', `${P}/configuration`)).body;
  const serving = (file: any, flag: string, environment = 'production') =>
    file.flags.find((f: { key: string }) => f.key === flag).environments[environment];

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok(app.mgmt('POST', '/projects', { key: 'cfg', name: 'Config' }));
    for (const key of ['checkout', 'upsell']) await ok(app.mgmt('POST', `${P}/flags`, { key, name: key, type: 'boolean' }));
    const values = (await ok(app.mgmt('GET', `${P}/flags/checkout/values`))) as { ulid: string; display: string }[];
    const base = `${P}/flags/upsell/environments/production`;
    const target = (await ok(app.mgmt('POST', `${base}/targets`))).ulid;
    await ok(
      app.mgmt('PUT', `${base}/targets/${target}/prerequisites`, {
        prerequisites: [{ flag_key: 'checkout', value_ulids: [values.find((v) => v.display === 'true')!.ulid] }],
      }),
    );
    await ok(app.mgmt('PUT', `${base}/targets/${target}/publish`, { comment: 'gate' }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('exports prerequisites by flag key and value display, and plans no change for the exported file', async () => {
    const file = await exported();
    expect(serving(file, 'upsell').prerequisites).toEqual([{ flag: 'checkout', values: ['true'] }]);
    expect(serving(file, 'upsell').rules).toEqual([]);
    const plan = await ok(app.mgmt('POST', `${P}/configuration/plan`, file));
    expect(plan.changes).toEqual([]);
  });

  it('applies a file without them (removed) and with them again (set), round trip through export', async () => {
    const file = await exported();
    delete serving(file, 'upsell').prerequisites;
    const plan = await ok(app.mgmt('POST', `${P}/configuration/plan`, file));
    expect(plan.changes.map((c: { action: string; kind: string; key: string }) => [c.action, c.kind, c.key])).toEqual([
      ['publish', 'serving', 'upsell'],
    ]);
    await ok(app.mgmt('POST', `${P}/configuration/apply?comment=drop`, file));
    expect(serving(await exported(), 'upsell').prerequisites).toBeUndefined();

    serving(file, 'upsell').prerequisites = [{ flag: 'checkout', values: ['true', 'false'] }];
    await ok(app.mgmt('POST', `${P}/configuration/apply?comment=set`, file));
    const again = await exported();
    expect(serving(again, 'upsell').prerequisites).toEqual([{ flag: 'checkout', values: ['true', 'false'] }]);
    expect((await ok(app.mgmt('POST', `${P}/configuration/plan`, again))).changes).toEqual([]);
  });

  it('promotes prerequisites to another environment', async () => {
    const result = await ok(
      app.mgmt('POST', `${P}/configuration/promote`, { from: 'production', to: 'development', flags: ['upsell'], publish: true }),
    );
    expect(result.promoted.map((p: { flag: string }) => p.flag)).toEqual(['upsell']);
    expect(serving(await exported(), 'upsell', 'development').prerequisites).toEqual([{ flag: 'checkout', values: ['true', 'false'] }]);
  });

  it('refuses a file whose prerequisites make a cycle, applying nothing', async () => {
    const file = await exported();
    // checkout, published nowhere yet, would require upsell, which requires checkout
    file.flags.find((f: { key: string }) => f.key === 'checkout').environments.production = {
      value: 'false',
      rules: [],
      rollout: null,
      prerequisites: [{ flag: 'upsell', values: ['true'] }],
    };
    const before = await app.knex('targets').count({ n: '*' });
    const res = await app.mgmt('POST', `${P}/configuration/apply?comment=cycle`, file);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(JSON.stringify(res.body.errors)).toMatch(/cycle/);
    expect(await app.knex('targets').count({ n: '*' })).toEqual(before);
  });

  it('refuses unknown flags, the flag itself and unknown values with their path in the file', async () => {
    const file = await exported();
    serving(file, 'upsell').prerequisites = [
      { flag: 'ghost', values: ['true'] },
      { flag: 'upsell', values: ['true'] },
      { flag: 'checkout', values: ['maybe'] },
    ];
    const res = await app.mgmt('POST', `${P}/configuration/plan`, file);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    const index = file.flags.findIndex((f: { key: string }) => f.key === 'upsell');
    const at = `flags.${index}.environments.production.prerequisites`;
    expect(Object.keys(res.body.errors).sort()).toEqual([`${at}.0.flag`, `${at}.1.flag`, `${at}.2.values.0`]);
  });
});
