import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { eventually } from './audit-fixtures.js';

const ENV = '/projects/shop/flags/checkout/environments/production';
const DEV = '/projects/shop/flags/checkout/environments/development';

const IDENTITY = ['equal', 'notequal', 'in', 'notin'];
const ATTRIBUTE_ONLY = [
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'notnull',
  'contains',
  'notcontains',
  'startswith',
  'endswith',
  'notstartswith',
  'notendswith',
];

describeEachDatabase('targeting rules', (db) => {
  let app: TestApp;
  let valTrue: string;
  let valFalse: string;
  let bannerValue: string;

  beforeAll(async () => {
    app = await startTestApp(db);
    expect((await app.mgmt('POST', '/projects', { key: 'shop', name: 'Shop' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects', { key: 'other', name: 'Other' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects/shop/flags', { key: 'checkout', name: 'Checkout', type: 'boolean' })).status).toBe(200);
    expect((await app.mgmt('POST', '/projects/shop/flags', { key: 'banner', name: 'Banner', type: 'string' })).status).toBe(200);
    const values = (await app.mgmt('GET', '/projects/shop/flags/checkout/values')).body.data as { ulid: string; display: string }[];
    valTrue = values.find((v) => v.display === 'true')!.ulid;
    valFalse = values.find((v) => v.display === 'false')!.ulid;
    bannerValue = (await app.mgmt('POST', '/projects/shop/flags/banner/values', { display: 'hello' })).body.data.ulid;
    for (const key of ['beta', 'vip']) {
      expect((await app.mgmt('POST', '/projects/shop/segments', { key, name: key })).status).toBe(200);
    }
    expect((await app.mgmt('POST', '/projects/other/segments', { key: 'elsewhere', name: 'Elsewhere' })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function newDraft(env = ENV): Promise<string> {
    const res = await app.mgmt('POST', `${env}/targets`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('draft');
    return res.body.data.ulid;
  }

  const rulesOf = (target: string, env = ENV) => `${env}/targets/${target}/rules`;

  function rule(overrides: Record<string, unknown> = {}) {
    return {
      value_ulid: valTrue,
      description: 'Paying users',
      criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['paid'] }],
      ...overrides,
    };
  }

  async function createRule(target: string, body: Record<string, unknown> = rule()) {
    const res = await app.mgmt('POST', rulesOf(target), body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  async function listed(target: string, env = ENV): Promise<any[]> {
    const res = await app.mgmt('GET', rulesOf(target, env));
    expect(res.status).toBe(200);
    return res.body.data;
  }

  /** Everything a refused request must leave as it was. */
  async function snapshot() {
    return {
      rules: await app.knex('rules').orderBy('ulid').select(),
      criteria: await app.knex('criteria').orderBy('ulid').select(),
      links: await app.knex('criterion_segments').orderBy(['criterion_ulid', 'segment_ulid']).select(),
      revisions: await app.knex('environments').orderBy('ulid').select('ulid', 'revision'),
      changes: await app
        .knex('audit_entries')
        .where('result', 'success')
        .whereIn('action', ['target_rule.created', 'target_rule.updated', 'target_rule.deleted', 'target_rule.reordered'])
        .count({ n: '*' }),
    };
  }

  function expectFieldErrors(res: ApiResponse, fields: string[]): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.status).toBeUndefined();
    for (const field of fields) expect(Object.keys(res.body.errors), JSON.stringify(res.body)).toContain(field);
  }

  function expectEnvelope(res: ApiResponse, status: number): void {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toMatchObject({ status: 'error', message: expect.any(String) });
  }

  async function token(scopes: string[], grants?: Record<string, unknown>): Promise<string> {
    const res = await app.mgmt('POST', '/tokens', { name: `t-${scopes.join('-')}`, scopes, ...(grants ? { grants } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.token;
  }

  describe('create and list', () => {
    it('appends rules in order, returns the documented shape and audits the change', async () => {
      const target = await newDraft();
      const revisions = await app.knex('environments').orderBy('ulid').select('ulid', 'revision');
      const first = await createRule(target, rule({ description: 'first' }));
      const second = await createRule(
        target,
        rule({
          value_ulid: valFalse,
          description: 'second',
          criteria: [
            { selector: 'attribute', sub_selector: 'email', comparer: 'isnull' },
            { selector: 'context', sub_selector: 'user', comparer: 'in', values: ['u-1', 'u-2'] },
            { selector: 'segment', comparer: 'notin', values: ['beta', 'vip'] },
          ],
        }),
      );
      expect(first).toMatchObject({ target_ulid: target, value_ulid: valTrue, description: 'first', position: 0 });
      expect(first.ulid).toMatch(/^rul_/);
      expect(second.position).toBe(1);
      expect(second.criteria.data).toEqual([
        {
          ulid: expect.stringMatching(/^crt_/),
          selector: 'attribute',
          sub_selector: 'email',
          comparer: 'isnull',
          position: 0,
          values: { data: [] },
        },
        {
          ulid: expect.stringMatching(/^crt_/),
          selector: 'context',
          sub_selector: 'user',
          comparer: 'in',
          position: 1,
          values: { data: [{ value: 'u-1' }, { value: 'u-2' }] },
        },
        {
          ulid: expect.stringMatching(/^crt_/),
          selector: 'segment',
          sub_selector: null,
          comparer: 'notin',
          position: 2,
          values: { data: [{ value: 'beta' }, { value: 'vip' }] },
        },
      ]);
      expect(await listed(target)).toEqual([first, second]);

      const segmentCriterion = second.criteria.data[2].ulid;
      const links = await app.knex('criterion_segments').where('criterion_ulid', segmentCriterion).select('segment_ulid');
      expect(links).toHaveLength(2);

      const entries = await app.knex('audit_entries').where({ action: 'target_rule.created', subject_ulid: second.ulid }).select();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ subject_type: 'target_rule', result: 'success', status_code: 200, http_method: 'POST' });
      expect(entries[0].environment_ulid).toMatch(/^env_/);
      expect(entries[0].project_ulid).toMatch(/^prj_/);
      const listedEntry = await app.knex('audit_entries').where({ action: 'target_rule.listed', subject_ulid: target }).first();
      expect(listedEntry).toMatchObject({ subject_type: 'target_rule', result: 'success' });

      // Drafts are not served: no environment revision moved.
      expect(await app.knex('environments').orderBy('ulid').select('ulid', 'revision')).toEqual(revisions);
    });

    it('answers 404 for unknown or mismatched path resources', async () => {
      const target = await newDraft();
      const devTarget = await newDraft(DEV);
      const paths = [
        `/projects/nope/flags/checkout/environments/production/targets/${target}/rules`,
        `/projects/shop/flags/nope/environments/production/targets/${target}/rules`,
        `/projects/shop/flags/banner/environments/production/targets/${target}/rules`,
        `/projects/shop/flags/checkout/environments/nope/targets/${target}/rules`,
        `/projects/other/flags/checkout/environments/production/targets/${target}/rules`,
        `${ENV}/targets/tgt_01J00000000000000000000000/rules`,
        `${ENV}/targets/${devTarget}/rules`,
      ];
      for (const p of paths) {
        expectEnvelope(await app.mgmt('GET', p), 404);
        expectEnvelope(await app.mgmt('POST', p, rule()), 404);
        expectEnvelope(await app.mgmt('PUT', p.replace(/rules$/, 'rules-order'), { rules: [{ ulid: 'rul_x', order: 0 }] }), 404);
      }
      expect(await app.knex('rules').whereIn('target_ulid', [target, devTarget]).count({ n: '*' })).toEqual([{ n: 0 }]);
    });

    it('refuses invalid bodies field by field and writes nothing', async () => {
      const target = await newDraft();
      const before = await snapshot();
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['value_ulid', 'description', 'criteria']],
        [rule({ criteria: [] }), ['criteria']],
        [rule({ extra: 1 }), ['extra']],
        [rule({ description: 'x'.repeat(501) }), ['description']],
        [rule({ criteria: [{ selector: 'cookie', comparer: 'equal', values: ['x'] }] }), ['criteria.0.selector']],
        [rule({ criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'like', values: ['x'] }] }), ['criteria.0.comparer']],
        [
          rule({ criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'equal', values: ['x'], bogus: true }] }),
          ['criteria.0.bogus'],
        ],
        [rule({ value_ulid: bannerValue }), ['value_ulid']],
        [rule({ value_ulid: 'val_01J00000000000000000000000' }), ['value_ulid']],
        [rule({ criteria: [{ selector: 'attribute', comparer: 'equal', values: ['x'] }] }), ['criteria.0.sub_selector']],
        [
          rule({ criteria: [{ selector: 'attribute', sub_selector: null, comparer: 'equal', values: ['x'] }] }),
          ['criteria.0.sub_selector'],
        ],
        [rule({ criteria: [{ selector: 'attribute', sub_selector: '', comparer: 'equal', values: ['x'] }] }), ['criteria.0.sub_selector']],
        [
          rule({ criteria: [{ selector: 'segment', sub_selector: 'user', comparer: 'in', values: ['beta'] }] }),
          ['criteria.0.sub_selector'],
        ],
        [rule({ criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'equal' }] }), ['criteria.0.values']],
        [rule({ criteria: [{ selector: 'context', comparer: 'in', values: [] }] }), ['criteria.0.values']],
        [
          rule({ criteria: [{ selector: 'attribute', sub_selector: 'age', comparer: 'gt', values: ['18', 'old'] }] }),
          ['criteria.0.values.1'],
        ],
        [
          rule({ criteria: [{ selector: 'segment', comparer: 'in', values: ['beta', 'ghost', 'elsewhere'] }] }),
          ['criteria.0.values.1', 'criteria.0.values.2'],
        ],
        [
          rule({
            criteria: [
              { selector: 'attribute', sub_selector: 'a', comparer: 'equal', values: ['x'] },
              { selector: 'context', comparer: 'contains', values: ['x'] },
            ],
          }),
          ['criteria.1.comparer'],
        ],
      ];
      for (const [body, fields] of cases) expectFieldErrors(await app.mgmt('POST', rulesOf(target), body), fields);
      expect(await snapshot()).toEqual(before);
      expect(await listed(target)).toEqual([]);
    });
  });

  describe('comparer and selector combinations', () => {
    for (const selector of ['attribute', 'context', 'segment']) {
      it(`accepts the allowed comparers of ${selector} and refuses the others`, async () => {
        const target = await newDraft();
        const accepted: string[] = [];
        for (const comparer of [...IDENTITY, ...ATTRIBUTE_ONLY]) {
          const allowed = IDENTITY.includes(comparer) || selector === 'attribute';
          const values =
            comparer === 'isnull' || comparer === 'notnull'
              ? {}
              : { values: selector === 'segment' ? ['beta'] : ['gt', 'gte', 'lt', 'lte'].includes(comparer) ? ['42'] : ['x'] };
          const criterion = { selector, comparer, ...(selector === 'attribute' ? { sub_selector: 'attr' } : {}), ...values };
          const res = await app.mgmt('POST', rulesOf(target), rule({ description: comparer, criteria: [criterion] }));
          if (allowed) {
            expect(res.status, `${selector} ${comparer}: ${JSON.stringify(res.body)}`).toBe(200);
            expect(res.body.data.criteria.data[0]).toMatchObject({ selector, comparer });
            accepted.push(comparer);
          } else {
            expectFieldErrors(res, ['criteria.0.comparer']);
          }
        }
        expect(accepted).toEqual(selector === 'attribute' ? [...IDENTITY, ...ATTRIBUTE_ONLY] : IDENTITY);
        expect((await listed(target)).map((r) => r.description)).toEqual(accepted);
      });
    }

    for (const comparer of ['isnull', 'notnull']) {
      it(`${comparer}: accepted without values, refused with values (even empty)`, async () => {
        const target = await newDraft();
        const ok = await createRule(target, rule({ criteria: [{ selector: 'attribute', sub_selector: 'email', comparer }] }));
        expect(ok.criteria.data[0].values).toEqual({ data: [] });
        const before = await snapshot();
        for (const values of [[], ['someone@example.com']]) {
          expectFieldErrors(
            await app.mgmt(
              'POST',
              rulesOf(target),
              rule({ criteria: [{ selector: 'attribute', sub_selector: 'email', comparer, values }] }),
            ),
            ['criteria.0.values'],
          );
        }
        expect(await snapshot()).toEqual(before);
      });
    }
  });

  describe('update (full replacement)', () => {
    it('replaces value, description and all criteria with new ulids, keeping position and created_at', async () => {
      const target = await newDraft();
      await createRule(target, rule({ description: 'zero' }));
      const original = await createRule(
        target,
        rule({
          description: 'one',
          criteria: [
            { selector: 'segment', comparer: 'in', values: ['beta'] },
            { selector: 'attribute', sub_selector: 'country', comparer: 'in', values: ['FR', 'BE'] },
          ],
        }),
      );
      const oldCriteria = original.criteria.data.map((c: { ulid: string }) => c.ulid);
      const res = await app.mgmt('PUT', `${rulesOf(target)}/${original.ulid}`, {
        value_ulid: valFalse,
        description: 'replaced',
        criteria: [{ selector: 'segment', comparer: 'equal', values: ['vip'] }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const updated = res.body.data;
      expect(updated).toMatchObject({
        ulid: original.ulid,
        value_ulid: valFalse,
        description: 'replaced',
        position: 1,
        created_at: original.created_at,
      });
      expect(updated.criteria.data).toHaveLength(1);
      expect(updated.criteria.data[0]).toMatchObject({
        selector: 'segment',
        comparer: 'equal',
        position: 0,
        values: { data: [{ value: 'vip' }] },
      });
      expect(oldCriteria).not.toContain(updated.criteria.data[0].ulid);
      expect(await app.knex('criteria').whereIn('ulid', oldCriteria).count({ n: '*' })).toEqual([{ n: 0 }]);
      expect(await app.knex('criterion_segments').whereIn('criterion_ulid', oldCriteria).count({ n: '*' })).toEqual([{ n: 0 }]);
      const vip = await app.knex('segments').where('key', 'vip').first('ulid');
      expect(await app.knex('criterion_segments').where('criterion_ulid', updated.criteria.data[0].ulid).select('segment_ulid')).toEqual([
        { segment_ulid: vip.ulid },
      ]);
      expect((await listed(target))[1]).toEqual(updated);
      expect(
        await app
          .knex('audit_entries')
          .where({ action: 'target_rule.updated', subject_ulid: original.ulid, result: 'success' })
          .count({ n: '*' }),
      ).toEqual([{ n: 1 }]);
    });

    it('refuses unknown rules, rules of another target and invalid bodies without changing anything', async () => {
      const target = await newDraft();
      const other = await newDraft();
      const mine = await createRule(target);
      const before = await snapshot();
      expectEnvelope(await app.mgmt('PUT', `${rulesOf(target)}/rul_01J00000000000000000000000`, rule()), 404);
      expectEnvelope(await app.mgmt('PUT', `${rulesOf(other)}/${mine.ulid}`, rule({ description: 'moved?' })), 404);
      expectFieldErrors(await app.mgmt('PUT', `${rulesOf(target)}/${mine.ulid}`, rule({ value_ulid: bannerValue })), ['value_ulid']);
      expectFieldErrors(await app.mgmt('PUT', `${rulesOf(target)}/${mine.ulid}`, { description: 'partial' }), ['value_ulid', 'criteria']);
      expectFieldErrors(
        await app.mgmt('PUT', `${rulesOf(target)}/${mine.ulid}`, rule({ criteria: [{ selector: 'context', comparer: 'isnull' }] })),
        ['criteria.0.comparer'],
      );
      expect(await snapshot()).toEqual(before);
      expect(await listed(target)).toEqual([mine]);
    });
  });

  describe('delete', () => {
    it('removes the rule, its criteria and segment links and renumbers the rest', async () => {
      const target = await newDraft();
      const a = await createRule(target, rule({ description: 'a' }));
      const b = await createRule(target, rule({ description: 'b', criteria: [{ selector: 'segment', comparer: 'in', values: ['beta'] }] }));
      const c = await createRule(target, rule({ description: 'c' }));
      const res = await app.mgmt('DELETE', `${rulesOf(target)}/${b.ulid}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
      expect((await listed(target)).map((r) => [r.ulid, r.position])).toEqual([
        [a.ulid, 0],
        [c.ulid, 1],
      ]);
      expect(await app.knex('criteria').where('rule_ulid', b.ulid).count({ n: '*' })).toEqual([{ n: 0 }]);
      expect(await app.knex('criterion_segments').where('criterion_ulid', b.criteria.data[0].ulid).count({ n: '*' })).toEqual([{ n: 0 }]);
      expect(
        await app.knex('audit_entries').where({ action: 'target_rule.deleted', subject_ulid: b.ulid, result: 'success' }).count({ n: '*' }),
      ).toEqual([{ n: 1 }]);
      // Appending after a delete continues the numbering without gaps.
      expect((await createRule(target, rule({ description: 'd' }))).position).toBe(2);
      expectEnvelope(await app.mgmt('DELETE', `${rulesOf(target)}/${b.ulid}`), 404);
    });
  });

  describe('reorder', () => {
    async function fourRules() {
      const target = await newDraft();
      const ulids: Record<string, string> = {};
      for (const d of ['A', 'B', 'C', 'D']) ulids[d] = (await createRule(target, rule({ description: d }))).ulid;
      return { target, u: ulids as Record<'A' | 'B' | 'C' | 'D', string> };
    }
    const shape = (rules: any[]) => rules.map((r) => `${r.description}${r.position}`).join(' ');

    it('sets the whole order when every rule is listed and returns the full list', async () => {
      const { target, u } = await fourRules();
      const res = await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, {
        rules: [
          { ulid: u.A, order: 3 },
          { ulid: u.B, order: 2 },
          { ulid: u.C, order: 1 },
          { ulid: u.D, order: 0 },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(shape(res.body.data)).toBe('D0 C1 B2 A3');
      expect(res.body.data[0].criteria.data).toHaveLength(1);
      expect(shape(await listed(target))).toBe('D0 C1 B2 A3');
      expect(
        await app
          .knex('audit_entries')
          .where({ action: 'target_rule.reordered', subject_ulid: target, result: 'success' })
          .count({ n: '*' }),
      ).toEqual([{ n: 1 }]);
    });

    it('reorders a subset among its own positions; unlisted rules keep theirs', async () => {
      const { target, u } = await fourRules();
      const res = await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, {
        rules: [
          { ulid: u.D, order: 0 },
          { ulid: u.A, order: 1 },
        ],
      });
      expect(shape(res.body.data)).toBe('D0 B1 C2 A3');
      const again = await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, { rules: [{ ulid: u.B, order: 9 }] });
      expect(shape(again.body.data)).toBe('D0 B1 C2 A3');
    });

    it('ignores rules of other targets and unknown ulids; equal orders keep the request order', async () => {
      const { target, u } = await fourRules();
      const other = await newDraft();
      const foreign = await createRule(other, rule({ description: 'F' }));
      const res = await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, {
        rules: [
          { ulid: u.C, order: 1 },
          { ulid: foreign.ulid, order: 0 },
          { ulid: 'rul_01J00000000000000000000000', order: 0 },
          { ulid: u.A, order: 1 },
        ],
      });
      expect(res.status).toBe(200);
      expect(shape(res.body.data)).toBe('C0 B1 A2 D3');
      expect(await listed(other)).toEqual([foreign]);
    });

    it('refuses a ulid listed twice and malformed bodies without changing anything', async () => {
      const { target, u } = await fourRules();
      const before = await snapshot();
      expectFieldErrors(
        await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, {
          rules: [
            { ulid: u.B, order: 0 },
            { ulid: u.B, order: 1 },
          ],
        }),
        ['rules.1.ulid'],
      );
      expectFieldErrors(await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, { rules: [] }), ['rules']);
      expectFieldErrors(await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, { rules: [{ ulid: u.A }] }), ['rules.0.order']);
      expectFieldErrors(await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, { rules: [{ ulid: u.A, order: 'first' }] }), [
        'rules.0.order',
      ]);
      expect(await snapshot()).toEqual(before);
      expect(shape(await listed(target))).toBe('A0 B1 C2 D3');
    });
  });

  describe('concurrency', () => {
    it('gives racing creations distinct consecutive positions', async () => {
      const target = await newDraft();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => app.mgmt('POST', rulesOf(target), rule({ description: `r${i}` }))),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      const positions = (await listed(target)).map((r) => r.position);
      expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    });
  });

  describe('only drafts are editable', () => {
    it('refuses every change on published, scheduled and expired targets with the standard envelope', async () => {
      const expiring = await newDraft();
      const expiringRule = await createRule(expiring);
      expect((await app.mgmt('PUT', `${ENV}/targets/${expiring}/publish`, {})).status).toBe(200);
      const published = await newDraft();
      expect((await app.mgmt('PUT', `${ENV}/targets/${published}/publish`, {})).status).toBe(200);
      const scheduled = await newDraft();
      const at = new Date(app.clock.now().getTime() + 86_400_000).toISOString();
      expect((await app.mgmt('PUT', `${ENV}/targets/${scheduled}/publish`, { scheduled_at: at })).status).toBe(200);
      const statuses = Object.fromEntries(
        (await app.knex('targets').whereIn('ulid', [expiring, published, scheduled]).select('ulid', 'status')).map((t) => [
          t.ulid,
          t.status,
        ]),
      );
      expect(statuses).toEqual({ [expiring]: 'expired', [published]: 'published', [scheduled]: 'scheduled' });

      // The published target holds a copy of the expired one's rule.
      const publishedRules = await listed(published);
      expect(publishedRules).toHaveLength(1);
      const before = await snapshot();
      for (const [target, ruleUlid] of [
        [expiring, expiringRule.ulid],
        [published, publishedRules[0].ulid],
        [scheduled, (await listed(scheduled))[0].ulid],
      ]) {
        expectEnvelope(await app.mgmt('POST', rulesOf(target), rule()), 422);
        expectEnvelope(await app.mgmt('PUT', `${rulesOf(target)}/${ruleUlid}`, rule()), 422);
        expectEnvelope(await app.mgmt('DELETE', `${rulesOf(target)}/${ruleUlid}`), 422);
        expectEnvelope(await app.mgmt('PUT', `${ENV}/targets/${target}/rules-order`, { rules: [{ ulid: ruleUlid, order: 0 }] }), 422);
        expect((await app.mgmt('GET', rulesOf(target))).status).toBe(200);
      }
      expect(await snapshot()).toEqual(before);
      const refusal = await app
        .knex('audit_entries')
        .where({ action: 'target_rule.created', result: 'invalid', subject_ulid: scheduled })
        .first();
      expect(refusal).toMatchObject({ subject_type: 'target_rule', status_code: 422 });
      expect(refusal.environment_ulid).toMatch(/^env_/);
    });
  });

  describe('scopes and grants', () => {
    let target: string;
    let ruleUlid: string;
    let devTarget: string;

    beforeAll(async () => {
      target = await newDraft();
      ruleUlid = (await createRule(target)).ulid;
      devTarget = await newDraft(DEV);
    });

    const operations = () => [
      { write: false, method: 'GET', path: rulesOf(target), body: undefined },
      { write: true, method: 'POST', path: rulesOf(target), body: rule({ description: 'by token' }) },
      { write: true, method: 'PUT', path: `${rulesOf(target)}/${ruleUlid}`, body: rule({ description: 'by token' }) },
      { write: true, method: 'PUT', path: `${ENV}/targets/${target}/rules-order`, body: { rules: [{ ulid: ruleUlid, order: 0 }] } },
      { write: true, method: 'DELETE', path: `${rulesOf(target)}/rul_01J00000000000000000000000`, body: undefined },
    ];

    it('needs targets:read to read and targets:write to write (write implies read)', async () => {
      const read = await token(['targets:read']);
      const write = await token(['targets:write']);
      const neither = await token(['projects:read', 'flags:read', 'flags:write', 'audit:read', 'config:write']);
      for (const op of operations()) {
        const label = `${op.method} ${op.path}`;
        const asRead = await app.mgmt(op.method, op.path, op.body, { token: read });
        if (op.write) {
          expectEnvelope(asRead, 403);
          expect(asRead.body.required_scope, label).toBe('targets:write');
        } else {
          expect(asRead.status, label).toBe(200);
        }
        const asWrite = await app.mgmt(op.method, op.path, op.body, { token: write });
        expect(asWrite.status, label).toBe(op.method === 'DELETE' ? 404 : 200);
        const asNeither = await app.mgmt(op.method, op.path, op.body, { token: neither });
        expectEnvelope(asNeither, 403);
        expect(asNeither.body.required_scope, label).toBe(op.write ? 'targets:write' : 'targets:read');
        const anonymous = await app.request(op.method, `/management/v1${op.path}`, { body: op.body });
        expectEnvelope(anonymous, 401);
      }
      // A refusal's audit entry is written once the answer is out: the last ones may still be on their way.
      const denied = await eventually(async () => {
        const counted = await app.knex('audit_entries').where({ action: 'scope.denied', result: 'denied_scope' }).count({ n: '*' });
        const n = Number((counted[0] as { n: number }).n);
        return n >= 9 ? n : undefined;
      });
      expect(denied).toBeGreaterThanOrEqual(9);
    });

    it('answers 404 for projects and environments outside the token grants', async () => {
      const otherProject = await token(['targets:write'], { projects: ['other'] });
      const devOnly = await token(['targets:write'], { environments: [{ project: 'shop', environment: 'development' }] });
      const shopOnly = await token(['targets:write'], { projects: ['shop'] });
      const before = await snapshot();
      for (const op of operations()) {
        expectEnvelope(await app.mgmt(op.method, op.path, op.body, { token: otherProject }), 404);
        expectEnvelope(await app.mgmt(op.method, op.path, op.body, { token: devOnly }), 404);
      }
      expect(await snapshot()).toEqual(before);

      const dev = await app.mgmt('POST', rulesOf(devTarget, DEV), rule({ description: 'dev' }), { token: devOnly });
      expect(dev.status).toBe(200);
      expect((await app.mgmt('GET', rulesOf(devTarget, DEV), undefined, { token: devOnly })).body.data).toHaveLength(1);
      expect((await app.mgmt('GET', rulesOf(target), undefined, { token: shopOnly })).status).toBe(200);
    });
  });
});
