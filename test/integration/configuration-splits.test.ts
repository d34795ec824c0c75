/**
 * Flags as code with weighted splits: a file's base and rule splits are planned, applied,
 * exported back unchanged (round trip), refused when invalid (nothing written) and promoted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectNoWrites } from './admin-support.js';

describeEachDatabase('flags as code: splits', (db) => {
  let app: TestApp;
  const projectKey = `splits-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  /** The export answers the file itself, not an envelope. */
  const exportFile = async () => {
    const res = await app.mgmt('GET', `${p}/configuration`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Splits',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    await ok('POST', `${p}/flags`, { key: 'layout', name: 'Layout', type: 'string' });
    for (const display of ['control', 'blue', 'green']) await ok('POST', `${p}/flags/layout/values`, { display });
  });
  afterAll(async () => {
    await app?.close();
  });

  const withSplits = (file: any) => {
    const flag = file.flags.find((f: any) => f.key === 'layout');
    flag.environments.staging = {
      value: 'control',
      split: {
        shares: [
          { value: 'control', weight: 34000 },
          { value: 'blue', weight: 33000 },
          { value: 'green', weight: 33000 },
        ],
      },
      rules: [
        {
          description: 'Accounts on the new plan',
          value: 'control',
          criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['new'] }],
          split: {
            attribute: 'account',
            shares: [
              { value: 'blue', weight: 50000 },
              { value: 'green', weight: 50000 },
            ],
          },
        },
      ],
      rollout: null,
    };
    return file;
  };

  it('plans, applies and exports a file with splits unchanged, then plans nothing', async () => {
    const file = withSplits(await exportFile());
    const plan = await ok('POST', `${p}/configuration/plan`, file);
    expect(plan.changes).toEqual([expect.objectContaining({ kind: 'serving', key: 'layout', environment: 'staging' })]);
    await ok('POST', `${p}/configuration/apply`, file);

    const exported = await exportFile();
    expect(exported).toEqual(file);
    expect((await ok('POST', `${p}/configuration/plan`, exported)).changes).toEqual([]);

    // What was applied is served: the target and its rule carry the splits.
    const targets = await ok('GET', `${p}/flags/layout/environments/staging/targets`);
    const served = targets.find((t: any) => t.status === 'published');
    expect(served.split.shares.map((s: any) => s.weight)).toEqual([34000, 33000, 33000]);
    const preview = await ok('POST', `${p}/flags/layout/environments/staging/evaluate`, {
      context: {
        type: 'user',
        identifier: 'u1',
        attributes: [
          { key: 'plan', values: [{ value: 'new' }] },
          { key: 'account', values: [{ value: 'a1' }] },
        ],
      },
    });
    expect(preview).toMatchObject({ resolved_by: 'rule', split: { rule: 0, weight: 50000 } });

    // A changed weight is a change of the serving configuration.
    const changed = structuredClone(exported);
    const staging = changed.flags.find((f: any) => f.key === 'layout').environments.staging;
    staging.split.shares = [
      { value: 'control', weight: 44000 },
      { value: 'blue', weight: 28000 },
      { value: 'green', weight: 28000 },
    ];
    expect((await ok('POST', `${p}/configuration/plan`, changed)).changes).toEqual([
      expect.objectContaining({ kind: 'serving', key: 'layout', environment: 'staging' }),
    ]);
    // Removing a split is one too.
    const removed = structuredClone(exported);
    delete removed.flags.find((f: any) => f.key === 'layout').environments.staging.rules[0].split;
    expect((await ok('POST', `${p}/configuration/plan`, removed)).changes).toHaveLength(1);
  });

  it('refuses a file whose split does not make 100 % or names an unknown value, and writes nothing', async () => {
    const file = await exportFile();
    const staging = file.flags.find((f: any) => f.key === 'layout').environments.staging;
    staging.split.shares[0].weight = 1;
    staging.rules[0].split.shares[1].value = 'purple';
    const refused = await expectNoWrites(app, () => app.mgmt('POST', `${p}/configuration/apply`, file));
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    const i = file.flags.findIndex((f: any) => f.key === 'layout');
    expect(Object.keys(refused.body.errors)).toEqual(
      expect.arrayContaining([
        `flags.${i}.environments.staging.split.shares`,
        `flags.${i}.environments.staging.rules.0.split.shares.1.value`,
      ]),
    );
  });

  it('promotes the splits to another environment', async () => {
    const promoted = await ok('POST', `${p}/configuration/promote`, { from: 'staging', to: 'production', publish: true });
    expect(promoted.promoted).toEqual([expect.objectContaining({ flag: 'layout', status: 'published' })]);
    const file = await exportFile();
    const environments = file.flags.find((f: any) => f.key === 'layout').environments;
    expect(environments.production).toEqual(environments.staging);
    expect(environments.production.split.shares).toHaveLength(3);
  });
});
