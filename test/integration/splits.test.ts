/**
 * Weighted splits over HTTP: a rule's split and a target's base split are written, refused when
 * invalid (nothing written), copied into the next draft, kept from deleting their values, and
 * served: public evaluation, the server payload, OFREP (reason SPLIT) and the management preview.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { waitFor } from './public-fixtures.js';

const FLAG = '/projects/lab/flags/layout';
const ENV = `${FLAG}/environments/production`;

describeEachDatabase('weighted splits', (db) => {
  let app: TestApp;
  const value: Record<string, string> = {};
  let otherFlagValue: string;
  let serverKey: string;

  beforeAll(async () => {
    app = await startTestApp(db);
    expect((await app.mgmt('POST', '/projects', { key: 'lab', name: 'Lab' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects/lab/flags', { key: 'layout', name: 'Layout', type: 'string' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects/lab/flags', { key: 'other', name: 'Other', type: 'string' })).status).toBe(200);
    for (const display of ['control', 'blue', 'green', 'legacy']) {
      const res = await app.mgmt('POST', `${FLAG}/values`, { display });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      value[display] = res.body.data.ulid;
    }
    otherFlagValue = (await app.mgmt('POST', '/projects/lab/flags/other/values', { display: 'x' })).body.data.ulid;
    const key = await app.mgmt('POST', '/projects/lab/environments/production/keys', { kind: 'server' });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    serverKey = key.body.data.key;
  });
  afterAll(async () => {
    await app?.close();
  });

  const split = (attribute: string | null, ...shares: [string, number][]) => ({
    ...(attribute === null ? {} : { attribute }),
    shares: shares.map(([display, weight]) => ({ value_ulid: value[display], weight })),
  });
  const stored = (attribute: string | null, ...shares: [string, number][]) => ({
    attribute,
    shares: shares.map(([display, weight]) => ({ value_ulid: value[display], weight })),
  });
  const gold = [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['gold'] }];

  async function newDraft(): Promise<string> {
    const res = await app.mgmt('POST', `${ENV}/targets`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.ulid;
  }

  async function splitRows() {
    return {
      splits: await app.knex('splits').orderBy('owner_ulid').select(),
      shares: await app.knex('split_shares').orderBy(['owner_ulid', 'position']).select(),
      rules: await app.knex('rules').orderBy('ulid').select(),
      targets: await app.knex('targets').orderBy('ulid').select(),
    };
  }

  function expectFieldErrors(res: ApiResponse, fields: string[]): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    for (const field of fields) expect(Object.keys(res.body.errors), JSON.stringify(res.body)).toContain(field);
  }

  describe('writing', () => {
    it('stores a rule split and a base split, shows them, and replaces or removes them', async () => {
      const target = await newDraft();
      const created = await app.mgmt('POST', `${ENV}/targets/${target}/rules`, {
        value_ulid: value.control,
        description: 'gold A/B',
        criteria: gold,
        split: split('account', ['blue', 50000], ['green', 50000]),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.split).toEqual(stored('account', ['blue', 50000], ['green', 50000]));
      const listed = await app.mgmt('GET', `${ENV}/targets/${target}/rules`);
      expect(listed.body.data[0].split).toEqual(stored('account', ['blue', 50000], ['green', 50000]));

      // A PUT replaces the whole rule: without split, the rule has none.
      const replaced = await app.mgmt('PUT', `${ENV}/targets/${target}/rules/${created.body.data.ulid}`, {
        value_ulid: value.control,
        description: 'gold',
        criteria: gold,
      });
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      expect(replaced.body.data.split).toBeNull();
      expect(await app.knex('splits').where('owner_ulid', created.body.data.ulid).select()).toEqual([]);

      const based = await app.mgmt('PUT', `${ENV}/targets/${target}`, {
        split: split(null, ['control', 34000], ['blue', 33000], ['green', 33000]),
      });
      expect(based.status, JSON.stringify(based.body)).toBe(200);
      expect(based.body.data.split).toEqual(stored(null, ['control', 34000], ['blue', 33000], ['green', 33000]));
      // Absent keeps it; null removes it.
      const commented = await app.mgmt('PUT', `${ENV}/targets/${target}`, { comment: 'A/B/C' });
      expect(commented.body.data.split).toEqual(stored(null, ['control', 34000], ['blue', 33000], ['green', 33000]));
      const removed = await app.mgmt('PUT', `${ENV}/targets/${target}`, { split: null });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      expect(removed.body.data.split).toBeNull();
      expect((await app.mgmt('DELETE', `${ENV}/targets/${target}`)).status).toBe(200);
    });

    it('refuses invalid splits with 422 naming the field, and writes nothing', async () => {
      const target = await newDraft();
      const before = await splitRows();
      const rule = (s: unknown) => ({ value_ulid: value.control, description: 'r', criteria: gold, split: s });
      expectFieldErrors(await app.mgmt('POST', `${ENV}/targets/${target}/rules`, rule(split(null, ['blue', 50000], ['green', 40000]))), [
        'split.shares',
      ]);
      expectFieldErrors(
        await app.mgmt(
          'POST',
          `${ENV}/targets/${target}/rules`,
          rule({
            shares: [
              { value_ulid: otherFlagValue, weight: 50000 },
              { value_ulid: value.blue, weight: 50000 },
            ],
          }),
        ),
        ['split.shares.0.value_ulid'],
      );
      expectFieldErrors(await app.mgmt('POST', `${ENV}/targets/${target}/rules`, rule(split(null, ['blue', 50000], ['blue', 50000]))), [
        'split.shares.1.value_ulid',
      ]);
      // The document's own limits: at least two shares, weights within 0..100000.
      expect((await app.mgmt('POST', `${ENV}/targets/${target}/rules`, rule(split(null, ['blue', 100000])))).status).toBe(422);
      expect((await app.mgmt('PUT', `${ENV}/targets/${target}`, { split: split(null, ['blue', 100001], ['green', -1]) })).status).toBe(422);
      const sum = await app.mgmt('PUT', `${ENV}/targets/${target}`, { split: split(null, ['blue', 1], ['green', 1]) });
      expectFieldErrors(sum, ['split.shares']);
      // Schema-valid input refused by a rule: a rule-based code, not validation_failed.
      expect(sum.body.code).toBe('invalid_combination');
      expect(await splitRows()).toEqual(before);
      expect((await app.mgmt('DELETE', `${ENV}/targets/${target}`)).status).toBe(200);
    });

    it('keeps a value a split serves from being deleted, and removes the splits with their draft', async () => {
      const target = await newDraft();
      const rule = await app.mgmt('POST', `${ENV}/targets/${target}/rules`, {
        value_ulid: value.control,
        description: 'r',
        criteria: gold,
        split: split(null, ['legacy', 10000], ['green', 90000]),
      });
      expect(rule.status).toBe(200);
      const refused = await app.mgmt('DELETE', `${FLAG}/values/${value.legacy}`);
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.code).toBe('value_in_use');
      expect((await app.mgmt('DELETE', `${ENV}/targets/${target}`)).status).toBe(200);
      expect(await app.knex('splits').whereIn('owner_ulid', [target, rule.body.data.ulid]).select()).toEqual([]);
      expect(await app.knex('split_shares').whereIn('owner_ulid', [target, rule.body.data.ulid]).select()).toEqual([]);
    });
  });

  it('removes splits with the flag, environment or project that holds them', async () => {
    const ownersLeft = async (owners: string[]) => ({
      splits: (await app.knex('splits').whereIn('owner_ulid', owners).select()).length,
      shares: (await app.knex('split_shares').whereIn('owner_ulid', owners).select()).length,
    });
    /** A draft of `flag` in `environment` with a base split and a rule split; their owners' ulids. */
    const splitDraft = async (project: string, flag: string, environment: string): Promise<string[]> => {
      const values: string[] = [];
      for (const display of ['p', 'q'])
        values.push((await app.mgmt('POST', `/projects/${project}/flags/${flag}/values`, { display })).body.data.ulid);
      const path = `/projects/${project}/flags/${flag}/environments/${environment}/targets`;
      const target = (await app.mgmt('POST', path)).body.data.ulid as string;
      const shares = { shares: values.map((value_ulid) => ({ value_ulid, weight: 50000 })) };
      expect((await app.mgmt('PUT', `${path}/${target}`, { split: shares })).status).toBe(200);
      const rule = await app.mgmt('POST', `${path}/${target}/rules`, {
        value_ulid: values[0],
        description: 'r',
        criteria: gold,
        split: shares,
      });
      expect(rule.status).toBe(200);
      const owners = [target, rule.body.data.ulid as string];
      expect(await ownersLeft(owners)).toEqual({ splits: 2, shares: 4 });
      return owners;
    };

    expect((await app.mgmt('POST', '/projects/lab/flags', { key: 'doomed', name: 'Doomed', type: 'string' })).status).toBe(200);
    const flagOwners = await splitDraft('lab', 'doomed', 'production');
    expect((await app.mgmt('DELETE', '/projects/lab/flags/doomed')).status).toBe(200);
    expect(await ownersLeft(flagOwners)).toEqual({ splits: 0, shares: 0 });

    expect((await app.mgmt('POST', '/projects/lab/environments', { key: 'sandbox', name: 'Sandbox' })).status).toBe(200);
    const environmentOwners = await splitDraft('lab', 'other', 'sandbox');
    expect((await app.mgmt('DELETE', '/projects/lab/environments/sandbox')).status).toBe(200);
    expect(await ownersLeft(environmentOwners)).toEqual({ splits: 0, shares: 0 });

    expect((await app.mgmt('POST', '/projects', { key: 'gone', name: 'Gone' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects/gone/flags', { key: 'f', name: 'F', type: 'string' })).status).toBe(200);
    const environment = (await app.mgmt('GET', '/projects/gone/environments')).body.data[0].key as string;
    const projectOwners = await splitDraft('gone', 'f', environment);
    expect((await app.mgmt('DELETE', '/projects/gone')).status).toBe(200);
    expect(await ownersLeft(projectOwners)).toEqual({ splits: 0, shares: 0 });
  });

  describe('serving', () => {
    let ruleUlid: string;

    beforeAll(async () => {
      const target = await newDraft();
      expect(
        (
          await app.mgmt('PUT', `${ENV}/targets/${target}`, {
            value_ulid: value.control,
            split: split(null, ['blue', 50000], ['green', 50000]),
          })
        ).status,
      ).toBe(200);
      const rule = await app.mgmt('POST', `${ENV}/targets/${target}/rules`, {
        value_ulid: value.legacy,
        description: 'gold accounts',
        criteria: gold,
        split: split('account', ['control', 0], ['legacy', 100000]),
      });
      expect(rule.status).toBe(200);
      ruleUlid = rule.body.data.ulid;
      const published = await app.mgmt('PUT', `${ENV}/targets/${target}/publish`, {});
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      await waitFor(
        async () => {
          const res = await app.request('GET', '/v1/payload', { apiKey: serverKey });
          return res.body.data?.config?.flags?.find((f: { key: string }) => f.key === 'layout')?.serving?.split !== undefined;
        },
        30_000,
        'the published split',
      );
    });

    const withContext = (context: unknown) => ({ apiKey: serverKey, headers: { 'X-VEXIL-CONTEXT': JSON.stringify(context) } });

    it('puts the splits in the server payload', async () => {
      const res = await app.request('GET', '/v1/payload', { apiKey: serverKey });
      const flag = res.body.data.config.flags.find((f: { key: string }) => f.key === 'layout');
      expect(flag.serving.value).toBe('control');
      expect(flag.serving.split).toEqual({
        attribute: null,
        shares: [
          { variant: 'blue', value: 'blue', weight: 50000 },
          { variant: 'green', value: 'green', weight: 50000 },
        ],
      });
      expect(flag.serving.rules[0].split).toEqual({
        attribute: 'account',
        shares: [
          { variant: 'control', value: 'control', weight: 0 },
          { variant: 'legacy', value: 'legacy', weight: 100000 },
        ],
      });
    });

    it('serves the split and names it in public evaluation, OFREP and the management preview', async () => {
      const seen = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const res = await app.request('GET', '/v1/flags/layout', withContext({ type: 'user', identifier: `user-${i}` }));
        expect(res.status).toBe(200);
        const served = res.body.data.flag;
        seen.add(served.value.string);
        expect(served.split).toEqual({ rule: null, variant: served.value.string, weight: 50000 });
      }
      expect([...seen].sort()).toEqual(['blue', 'green']);

      const goldContext = {
        type: 'user',
        identifier: 'u1',
        attributes: [
          { key: 'plan', values: [{ value: 'gold' }] },
          { key: 'account', values: [{ value: 'acme' }] },
        ],
      };
      const ruleServed = await app.request('GET', '/v1/flags/layout', withContext(goldContext));
      expect(ruleServed.body.data.flag).toMatchObject({
        value: { string: 'legacy' },
        split: { rule: 0, variant: 'legacy', weight: 100000 },
      });

      const ofrep = await app.request('POST', '/ofrep/v1/evaluate/flags/layout', {
        apiKey: serverKey,
        body: { context: { targetingKey: 'u1', plan: 'gold', account: 'acme' } },
      });
      expect(ofrep.status, JSON.stringify(ofrep.body)).toBe(200);
      expect(ofrep.body).toMatchObject({
        reason: 'SPLIT',
        variant: 'legacy',
        value: 'legacy',
        metadata: { resolved_by: 'rule', split_weight: 100000 },
      });

      const preview = await app.mgmt('POST', `${ENV}/evaluate`, { context: goldContext });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.data).toMatchObject({
        value: 'legacy',
        resolved_by: 'rule',
        split: { rule: 0, variant: 'legacy', weight: 100000 },
      });
    });

    it('serves the plain value to a context without the bucketing attribute', async () => {
      const noAccount = { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] };
      const res = await app.request('GET', '/v1/flags/layout', withContext(noAccount));
      expect(res.body.data.flag).toEqual({ key: 'layout', name: 'Layout', type: 'string', value: { string: 'legacy' } });
      const preview = await app.mgmt('POST', `${ENV}/evaluate`, {});
      // No split named: the answer carries no `split` member at all.
      expect(preview.body.data).toEqual({
        key: 'layout',
        name: 'Layout',
        type: 'string',
        value: 'control',
        resolved_by: 'target',
        explanation: expect.objectContaining({ target: 'newest', prerequisite_failed: null }),
      });
      const ofrep = await app.request('POST', '/ofrep/v1/evaluate/flags/layout', {
        apiKey: serverKey,
        body: { context: { targetingKey: 'u2', plan: 'gold' } },
      });
      expect(ofrep.body).toMatchObject({ reason: 'TARGETING_MATCH', variant: 'legacy' });
      expect(ofrep.body.metadata.split_weight).toBeUndefined();
    });

    it('counts the distinct contexts each variant reached today, from evaluations and usage reports', async () => {
      const exposures = async (): Promise<{ day: string; variant: string; contexts: number }[]> => {
        const res = await app.mgmt('GET', `${ENV}/exposures?days=2`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data;
      };
      const today = new Date().toISOString().slice(0, 10);
      const counted = (rows: { day: string; variant: string; contexts: number }[], variant: string) =>
        rows.find((r) => r.day === today && r.variant === variant)?.contexts ?? 0;
      const got = new Map<string, number>();
      // Contexts exposure-0..29, each evaluated twice and through two paths: counted once each.
      for (let i = 0; i < 30; i++) {
        const context = { type: 'user', identifier: `exposure-${i}` };
        const res = await app.request('GET', '/v1/flags/layout', withContext(context));
        got.set(res.body.data.flag.value.string, (got.get(res.body.data.flag.value.string) ?? 0) + 1);
        await app.request('POST', '/ofrep/v1/evaluate/flags/layout', {
          apiKey: serverKey,
          body: { context: { targetingKey: `exposure-${i}`, contextType: 'user' } },
        });
      }
      // An SDK that evaluated locally reports its use with the context: counted by the variant that context gets.
      const reported = await app.request('POST', '/v1/flags/layout/usage', {
        apiKey: serverKey,
        body: { count: 3, context: { type: 'user', identifier: 'reporter-1' } },
      });
      expect(reported.status, JSON.stringify(reported.body)).toBe(200);
      const reporterVariant = (await app.request('GET', '/v1/flags/layout', withContext({ type: 'user', identifier: 'reporter-1' }))).body
        .data.flag.value.string;
      got.set(reporterVariant, (got.get(reporterVariant) ?? 0) + 1);
      // With user-0..39 of the test before, 40 + 30 + 1 distinct contexts reached the base split
      // (u1 got the rule); the sketch is close to exact at this size.
      await waitFor(
        async () => {
          const list = await exposures();
          return counted(list, 'blue') + counted(list, 'green') >= 68 ? list : undefined;
        },
        30_000,
        'the exposure counts',
      );
      // The flusher writes every second: once the counts reached the database, wait out the
      // flushes still under way so the total read here is final.
      let rows = await exposures();
      for (let settled = false; !settled; ) {
        await new Promise((resolve) => setTimeout(resolve, 2500));
        const next = await exposures();
        settled = counted(next, 'blue') + counted(next, 'green') === counted(rows, 'blue') + counted(rows, 'green');
        rows = next;
      }
      for (const r of rows) expect(r).toMatchObject({ day: today, variant: expect.any(String), contexts: expect.any(Number) });
      const total = counted(rows, 'blue') + counted(rows, 'green');
      expect(total).toBeLessThanOrEqual(74);
      expect(counted(rows, 'blue')).toBeGreaterThanOrEqual(got.get('blue') ?? 0);
      expect(counted(rows, 'green')).toBeGreaterThanOrEqual(got.get('green') ?? 0);
      // Evaluating the same contexts again adds nobody.
      for (let i = 0; i < 5; i++) await app.request('GET', '/v1/flags/layout', withContext({ type: 'user', identifier: `exposure-${i}` }));
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const again = await exposures();
      expect(counted(again, 'blue') + counted(again, 'green')).toBe(total);
      expect((await app.mgmt('GET', `${ENV}/exposures?days=0`)).status).toBe(422);
    });

    it('counts the other contexts a usage report carries, once each, and refuses an invalid one', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const total = async () =>
        ((await app.mgmt('GET', `${ENV}/exposures`)).body.data as { day: string; contexts: number }[])
          .filter((r) => r.day === today)
          .reduce((sum, r) => sum + r.contexts, 0);
      await waitFor(async () => ((await total()) >= 68 ? true : undefined), 30_000, 'the earlier exposures');
      const before = await total();
      const contexts = Array.from({ length: 10 }, (_, i) => ({ type: 'user', identifier: `sdk-user-${i}` }));
      const reported = await app.request('POST', '/v1/flags/layout/usage', { apiKey: serverKey, body: { count: 10, contexts } });
      expect(reported.status, JSON.stringify(reported.body)).toBe(200);
      await waitFor(async () => ((await total()) >= before + 9 ? true : undefined), 30_000, 'the reported contexts');
      expect(await total()).toBeLessThanOrEqual(before + 11);
      const refused = await app.request('POST', '/v1/flags/layout/usage', {
        apiKey: serverKey,
        body: { count: 1, contexts: [{ type: 'user', identifier: '' }] },
      });
      expect(refused.status).toBe(400);
    });

    it('copies the splits into the next draft', async () => {
      const draft = await app.mgmt('POST', `${ENV}/targets`);
      expect(draft.status).toBe(200);
      expect(draft.body.data.split).toEqual(stored(null, ['blue', 50000], ['green', 50000]));
      const rules = await app.mgmt('GET', `${ENV}/targets/${draft.body.data.ulid}/rules`);
      expect(rules.body.data[0].ulid).not.toBe(ruleUlid);
      expect(rules.body.data[0].split).toEqual(stored('account', ['control', 0], ['legacy', 100000]));
      expect((await app.mgmt('DELETE', `${ENV}/targets/${draft.body.data.ulid}`)).status).toBe(200);
    });
  });
});
