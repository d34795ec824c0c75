import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type ApiResponse, type TestApp } from '../support/test-app.js';
import { eventually } from './audit-fixtures.js';
import { createFixture, revision, setEnvironment, snapshot, statuses, type Fixture } from './targets-fixture.js';

const day = 86_400_000;

describeEachDatabase('targets, publishing and rollouts', (db) => {
  let app: TestApp;
  let other: Fixture;

  beforeAll(async () => {
    app = await startTestApp(db);
    other = await createFixture(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  // ------------------------------------------------------------------ helpers

  const future = (ms = day) => new Date(app.clock.now().getTime() + ms).toISOString();

  async function ok(res: Promise<ApiResponse>): Promise<any> {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  }

  const createDraft = (fx: Fixture) => ok(app.mgmt('POST', `${fx.base}/targets`));
  const publish = (fx: Fixture, ulid: string, body: Record<string, unknown> = {}) =>
    ok(app.mgmt('PUT', `${fx.base}/targets/${ulid}/publish`, body));
  const publishNew = async (fx: Fixture, body: Record<string, unknown> = {}) => publish(fx, (await createDraft(fx)).ulid, body);

  function expectStandard(res: ApiResponse, message: RegExp): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'status']);
    expect(res.body.status).toBe('error');
    expect(res.body.message).toMatch(message);
  }

  function expectField(res: ApiResponse, field: string): void {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.status).toBeUndefined();
    expect(Object.keys(res.body.errors)).toContain(field);
  }

  // ------------------------------------------------------------------ list, create, get, update, delete

  describe('list, create, get, update, delete', () => {
    it('creates a draft with the default value when nothing is published; lists newest first', async () => {
      const fx = await createFixture(app);
      expect(await ok(app.mgmt('GET', `${fx.base}/targets`))).toEqual([]);
      const a = await createDraft(fx);
      expect(a).toMatchObject({
        flag_ulid: fx.flagUlid,
        environment_ulid: fx.envUlid,
        value_ulid: fx.falseValue,
        status: 'draft',
        comment: null,
        scheduled_at: null,
        published_at: null,
        rollout_mode: null,
        rollout_percentage: null,
        rollout_status: null,
      });
      expect(a.ulid).toMatch(/^tgt_/);
      const b = await createDraft(fx);
      const list = await ok(app.mgmt('GET', `${fx.base}/targets`));
      expect(list.map((t: { ulid: string }) => t.ulid)).toEqual([b.ulid, a.ulid]);
      // Another environment has its own targets.
      expect(await ok(app.mgmt('GET', `/projects/${fx.project}/flags/${fx.flag}/environments/${fx.otherEnv}/targets`))).toEqual([]);
      expect(await ok(app.mgmt('GET', `${fx.base}/targets/${a.ulid}`))).toEqual(a);
      const audit = await app.knex('audit_entries').where({ subject_ulid: a.ulid, action: 'target.created' }).first();
      expect(audit).toMatchObject({ result: 'success', subject_type: 'target', environment_ulid: fx.envUlid });
    });

    it('refuses a flag without values with the standard envelope and creates nothing', async () => {
      const fx = await createFixture(app, { flagType: 'string' });
      const res = await app.mgmt('POST', `${fx.base}/targets`);
      expectStandard(res, /no values/);
      expect((await snapshot(app, fx)).targets).toEqual([]);
    });

    it('copies the serving target: value, rules, criteria and segment links, not its rollout', async () => {
      const fx = await createFixture(app);
      const segment = await app.mgmt('POST', `/projects/${fx.project}/segments`, { key: 'beta', name: 'Beta', included: ['u1'] });
      expect(segment.status, JSON.stringify(segment.body)).toBe(200);
      const first = await createDraft(fx);
      await ok(app.mgmt('PUT', `${fx.base}/targets/${first.ulid}`, { value_ulid: fx.trueValue }));
      for (const [i, criteria] of [
        [{ selector: 'segment', comparer: 'in', values: ['beta'] }],
        [
          { selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro', 'team'] },
          { selector: 'context', comparer: 'notin', values: ['u9'] },
        ],
      ].entries()) {
        await ok(
          app.mgmt('POST', `${fx.base}/targets/${first.ulid}/rules`, {
            value_ulid: i === 0 ? fx.falseValue : fx.trueValue,
            description: `rule ${i}`,
            criteria,
          }),
        );
      }
      await publish(fx, first.ulid, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 30 });

      const copy = await createDraft(fx);
      expect(copy).toMatchObject({
        status: 'draft',
        value_ulid: fx.trueValue,
        rollout_mode: null,
        rollout_percentage: null,
        rollout_status: null,
      });
      const audit = await app.knex('audit_entries').where({ subject_ulid: copy.ulid }).first('action');
      expect(audit.action).toBe('target.cloned');

      const rulesOf = async (ulid: string) => (await ok(app.mgmt('GET', `${fx.base}/targets/${ulid}/rules`))) as any[];
      const strip = (rules: any[]) =>
        rules.map((r) => ({
          value_ulid: r.value_ulid,
          description: r.description,
          position: r.position,
          criteria: r.criteria.data.map((c: any) => ({
            selector: c.selector,
            sub_selector: c.sub_selector,
            comparer: c.comparer,
            position: c.position,
            values: c.values,
          })),
        }));
      const original = await rulesOf(first.ulid);
      const copied = await rulesOf(copy.ulid);
      expect(copied).toHaveLength(2);
      expect(strip(copied)).toEqual(strip(original));
      const originalIds = new Set([...original.map((r) => r.ulid), ...original.flatMap((r) => r.criteria.data.map((c: any) => c.ulid))]);
      for (const r of copied) {
        expect(originalIds.has(r.ulid)).toBe(false);
        expect(r.target_ulid).toBe(copy.ulid);
        for (const c of r.criteria.data) expect(originalIds.has(c.ulid)).toBe(false);
      }
      const links = await app
        .knex('criterion_segments as cs')
        .join('criteria as c', 'c.ulid', 'cs.criterion_ulid')
        .join('rules as r', 'r.ulid', 'c.rule_ulid')
        .whereIn('r.target_ulid', [first.ulid, copy.ulid])
        .select('r.target_ulid', 'cs.segment_ulid');
      expect(links.map((l: any) => l.target_ulid).sort()).toEqual([first.ulid, copy.ulid].sort());
      expect(new Set(links.map((l: any) => l.segment_ulid)).size).toBe(1);
      expect(links[0].segment_ulid).toBe(segment.body.data.ulid);
    });

    it('deleting a draft removes its rules, criteria and segment links', async () => {
      const fx = await createFixture(app);
      await ok(app.mgmt('POST', `/projects/${fx.project}/segments`, { key: 'vip', name: 'VIP', included: ['u1'] }));
      const d = await createDraft(fx);
      const rule = await ok(
        app.mgmt('POST', `${fx.base}/targets/${d.ulid}/rules`, {
          value_ulid: fx.trueValue,
          description: 'vip',
          criteria: [
            { selector: 'segment', comparer: 'in', values: ['vip'] },
            { selector: 'attribute', sub_selector: 'country', comparer: 'equal', values: ['NL'] },
          ],
        }),
      );
      const criteria = rule.criteria.data.map((c: { ulid: string }) => c.ulid);
      expect(await app.knex('criterion_segments').whereIn('criterion_ulid', criteria).count({ n: '*' }).first()).toMatchObject({ n: 1 });
      const del = await app.mgmt('DELETE', `${fx.base}/targets/${d.ulid}`);
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ status: 'success' });
      expect(await app.knex('targets').where('ulid', d.ulid).first()).toBeUndefined();
      expect(await app.knex('rules').where('target_ulid', d.ulid).count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect(await app.knex('criteria').whereIn('ulid', criteria).count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect(await app.knex('criterion_segments').whereIn('criterion_ulid', criteria).count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect(await ok(app.mgmt('GET', `${fx.base}/targets`))).toEqual([]);
    });

    it('updates the value and comment of a draft', async () => {
      const fx = await createFixture(app);
      const d = await createDraft(fx);
      const updated = await ok(app.mgmt('PUT', `${fx.base}/targets/${d.ulid}`, { value_ulid: fx.trueValue, comment: 'go' }));
      expect(updated).toMatchObject({ ulid: d.ulid, value_ulid: fx.trueValue, comment: 'go', status: 'draft' });
      const cleared = await ok(app.mgmt('PUT', `${fx.base}/targets/${d.ulid}`, { comment: null }));
      expect(cleared).toMatchObject({ value_ulid: fx.trueValue, comment: null });
    });

    it('404s for unknown targets and targets of another flag or environment', async () => {
      const fx = await createFixture(app);
      const d = await createDraft(fx);
      const paths = [
        `${fx.base}/targets/tgt_01ARZ3NDEKTSV4RRFFQ69G5FAV`,
        `${other.base}/targets/${d.ulid}`,
        `/projects/${fx.project}/flags/${fx.flag}/environments/${fx.otherEnv}/targets/${d.ulid}`,
      ];
      for (const path of paths) {
        const before = await snapshot(app, fx);
        for (const [method, suffix, body] of [
          ['GET', '', undefined],
          ['PUT', '', { comment: 'x' }],
          ['DELETE', '', undefined],
          ['PUT', '/publish', {}],
          ['POST', '/rollout', { rollout_mode: 'automatic' }],
          ['PUT', '/rollout', { action: 'pause' }],
          ['DELETE', '/rollout', undefined],
          ['POST', '/rollout/complete', undefined],
        ] as const) {
          const res = await app.mgmt(method, path + suffix, body);
          expect(res.status, `${method} ${path}${suffix}`).toBe(404);
          expect(res.body.status).toBe('error');
        }
        expect(await snapshot(app, fx)).toEqual(before);
      }
      for (const base of [
        `/projects/${fx.project}/flags/nope/environments/production`,
        `/projects/${fx.project}/flags/${fx.flag}/environments/nope`,
      ]) {
        expect((await app.mgmt('GET', `${base}/targets`)).status).toBe(404);
        expect((await app.mgmt('POST', `${base}/targets`)).status).toBe(404);
      }
    });
  });

  // ------------------------------------------------------------------ transitions (table-driven)

  type State =
    | 'draft'
    | 'draftWithRollout'
    | 'scheduled'
    | 'scheduledWithRollout'
    | 'published'
    | 'expired'
    | 'active'
    | 'activeAutomatic'
    | 'paused'
    | 'completed'
    | 'draftDuringRollout';

  interface Made {
    fx: Fixture;
    /** The target the operation acts on. */
    target: string;
    /** The published target that was serving before `target` (for drafts/scheduled: the serving one). */
    base: string;
  }

  /** A fresh project whose flag has a published base target and a target in the given state. */
  async function make(state: State, env: { comments_required?: boolean; confirmation_required?: boolean } = {}): Promise<Made> {
    const fx = await createFixture(app);
    const base = (await publishNew(fx)).ulid as string;
    let target: string;
    switch (state) {
      case 'draft':
      case 'draftWithRollout':
      case 'scheduled':
      case 'scheduledWithRollout': {
        target = (await createDraft(fx)).ulid;
        if (state === 'draftWithRollout' || state === 'scheduledWithRollout') {
          await ok(app.mgmt('POST', `${fx.base}/targets/${target}/rollout`, { rollout_mode: 'manual', rollout_percentage: 10 }));
        }
        if (state === 'scheduled' || state === 'scheduledWithRollout') await publish(fx, target, { scheduled_at: future() });
        break;
      }
      case 'published':
        target = (await publishNew(fx)).ulid;
        break;
      case 'expired':
        target = base;
        await publishNew(fx);
        break;
      case 'active':
      case 'paused':
      case 'completed':
        target = (await publishNew(fx, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 })).ulid;
        if (state === 'paused') await ok(app.mgmt('PUT', `${fx.base}/targets/${target}/rollout`, { action: 'pause' }));
        if (state === 'completed') await ok(app.mgmt('POST', `${fx.base}/targets/${target}/rollout/complete`));
        break;
      case 'activeAutomatic':
        target = (await publishNew(fx, { rollout_enabled: true, rollout_mode: 'automatic' })).ulid;
        break;
      case 'draftDuringRollout': {
        await publishNew(fx, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
        target = (await createDraft(fx)).ulid;
        break;
      }
    }
    if (env.comments_required !== undefined || env.confirmation_required !== undefined) await setEnvironment(app, fx, env);
    return { fx, target, base };
  }

  interface Refused {
    name: string;
    state: State;
    env?: { comments_required?: boolean; confirmation_required?: boolean };
    method: string;
    suffix: string;
    body?: unknown | ((m: Made) => unknown);
    field?: string;
    message?: RegExp;
  }

  const refused: Refused[] = [
    {
      name: 'publish an expired target',
      state: 'expired',
      method: 'PUT',
      suffix: '/publish',
      body: {},
      message: /expired; only a draft or scheduled/,
    },
    {
      name: 'publish a published target',
      state: 'published',
      method: 'PUT',
      suffix: '/publish',
      body: {},
      message: /published; only a draft or scheduled/,
    },
    {
      name: 'schedule a published target',
      state: 'published',
      method: 'PUT',
      suffix: '/publish',
      body: () => ({ scheduled_at: future() }),
      message: /only a draft or scheduled/,
    },
    {
      name: 'update a published target',
      state: 'published',
      method: 'PUT',
      suffix: '',
      body: { comment: 'x' },
      message: /only a draft target can be changed/,
    },
    { name: 'update an expired target', state: 'expired', method: 'PUT', suffix: '', body: { comment: 'x' }, message: /only a draft/ },
    { name: 'update a scheduled target', state: 'scheduled', method: 'PUT', suffix: '', body: { comment: 'x' }, message: /only a draft/ },
    { name: 'delete a published target', state: 'published', method: 'DELETE', suffix: '', message: /cannot|only a draft or scheduled/ },
    { name: 'delete an expired target', state: 'expired', method: 'DELETE', suffix: '', message: /only a draft or scheduled/ },
    {
      name: 'rollout on a draft that already has one',
      state: 'draftWithRollout',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'automatic' },
      message: /already has a rollout/,
    },
    {
      name: 'rollout on a published target',
      state: 'published',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'automatic' },
      message: /only be configured on a draft/,
    },
    {
      name: 'rollout on a scheduled target',
      state: 'scheduled',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'automatic' },
      message: /only be configured on a draft/,
    },
    {
      name: 'pause a paused rollout',
      state: 'paused',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'pause' },
      message: /no active rollout/,
    },
    {
      name: 'resume an active rollout',
      state: 'active',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'resume' },
      message: /not paused/,
    },
    {
      name: 'change the percentage of a paused rollout',
      state: 'paused',
      method: 'PUT',
      suffix: '/rollout',
      body: { rollout_percentage: 50 },
      message: /no active rollout/,
    },
    {
      name: 'percentage change in automatic mode',
      state: 'activeAutomatic',
      method: 'PUT',
      suffix: '/rollout',
      body: { rollout_percentage: 50 },
      field: 'rollout_percentage',
    },
    {
      name: 'pause a completed rollout',
      state: 'completed',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'pause' },
      message: /no active rollout/,
    },
    {
      name: 'pause on a published target without rollout',
      state: 'published',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'pause' },
      message: /no active rollout/,
    },
    {
      name: 'rollout update on a draft',
      state: 'draftWithRollout',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'pause' },
      message: /not published/,
    },
    {
      name: 'rollout update on an expired target',
      state: 'expired',
      method: 'PUT',
      suffix: '/rollout',
      body: { rollout_percentage: 20 },
      message: /not published/,
    },
    {
      name: 'rollout update with both fields',
      state: 'active',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'pause', rollout_percentage: 20 },
      field: 'body',
    },
    { name: 'rollout update with neither field', state: 'active', method: 'PUT', suffix: '/rollout', body: {}, field: 'body' },
    {
      name: 'rollout percentage 0',
      state: 'active',
      method: 'PUT',
      suffix: '/rollout',
      body: { rollout_percentage: 0 },
      field: 'rollout_percentage',
    },
    {
      name: 'rollout percentage 101',
      state: 'active',
      method: 'PUT',
      suffix: '/rollout',
      body: { rollout_percentage: 101 },
      field: 'rollout_percentage',
    },
    {
      name: 'rollout percentage 2.5',
      state: 'active',
      method: 'PUT',
      suffix: '/rollout',
      body: { rollout_percentage: 2.5 },
      field: 'rollout_percentage',
    },
    { name: 'complete a completed rollout', state: 'completed', method: 'POST', suffix: '/rollout/complete', message: /already completed/ },
    { name: 'complete on a draft', state: 'draftWithRollout', method: 'POST', suffix: '/rollout/complete', message: /not published/ },
    { name: 'complete without rollout', state: 'published', method: 'POST', suffix: '/rollout/complete', message: /no rollout/ },
    { name: 'delete the rollout of a target without one', state: 'published', method: 'DELETE', suffix: '/rollout', message: /no rollout/ },
    { name: 'delete the rollout of an expired target', state: 'expired', method: 'DELETE', suffix: '/rollout', message: /expired/ },
    {
      name: 'create a manual rollout without percentage',
      state: 'draft',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'manual' },
      field: 'rollout_percentage',
    },
    {
      name: 'create an automatic rollout with percentage',
      state: 'draft',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'automatic', rollout_percentage: 5 },
      field: 'rollout_percentage',
    },
    {
      name: 'create a rollout with percentage 0',
      state: 'draft',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'manual', rollout_percentage: 0 },
      field: 'rollout_percentage',
    },
    {
      name: 'publish with a past scheduled_at',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: () => ({ scheduled_at: future(-60_000) }),
      field: 'scheduled_at',
    },
    {
      name: 'publish without a required comment',
      state: 'draft',
      env: { comments_required: true },
      method: 'PUT',
      suffix: '/publish',
      body: {},
      field: 'comment',
    },
    {
      name: 'publish with an empty required comment',
      state: 'draft',
      env: { comments_required: true },
      method: 'PUT',
      suffix: '/publish',
      body: { comment: ' ' },
      field: 'comment',
    },
    {
      name: 'schedule without a required comment',
      state: 'draft',
      env: { comments_required: true },
      method: 'PUT',
      suffix: '/publish',
      body: () => ({ scheduled_at: future(), comment: null }),
      field: 'comment',
    },
    {
      name: 'publish where confirmation is required',
      state: 'draft',
      env: { confirmation_required: true },
      method: 'PUT',
      suffix: '/publish',
      body: { comment: 'c' },
      message: /confirmation/,
    },
    {
      name: 'publish a scheduled target where confirmation is required',
      state: 'scheduled',
      env: { confirmation_required: true },
      method: 'PUT',
      suffix: '/publish',
      body: {},
      message: /confirmation/,
    },
    {
      name: 'publish a manual rollout without percentage',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_enabled: true, rollout_mode: 'manual' },
      field: 'rollout_percentage',
    },
    {
      name: 'publish an automatic rollout with percentage',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_enabled: true, rollout_mode: 'automatic', rollout_percentage: 5 },
      field: 'rollout_percentage',
    },
    {
      name: 'publish a rollout without mode',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_enabled: true },
      field: 'rollout_mode',
    },
    {
      name: 'publish a rollout mode without rollout_enabled',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_mode: 'manual', rollout_percentage: 5 },
      field: 'rollout_mode',
    },
    {
      name: 'publish a rollout while another is in progress',
      state: 'draftDuringRollout',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_enabled: true, rollout_mode: 'automatic' },
      message: /in progress/,
    },
    {
      name: 'update with a value of another flag',
      state: 'draft',
      method: 'PUT',
      suffix: '',
      body: () => ({ value_ulid: other.trueValue }),
      field: 'value_ulid',
    },
    {
      name: 'update with an unknown value',
      state: 'draft',
      method: 'PUT',
      suffix: '',
      body: { value_ulid: 'val_01ARZ3NDEKTSV4RRFFQ69G5FAV' },
      field: 'value_ulid',
    },
    { name: 'update with an empty body', state: 'draft', method: 'PUT', suffix: '', body: {}, field: 'body' },
    { name: 'update with an unknown field', state: 'draft', method: 'PUT', suffix: '', body: { status: 'published' }, field: 'status' },
  ];

  describe('refused transitions change nothing', () => {
    it.each(refused)('$name -> 422', async (c) => {
      const m = await make(c.state, c.env);
      const before = await snapshot(app, m.fx);
      const auditsBefore = await app
        .knex('audit_entries')
        .where('result', 'success')
        .whereIn('subject_ulid', [m.target])
        .count({ n: '*' })
        .first();
      const body = typeof c.body === 'function' ? c.body(m) : c.body;
      const res = await app.mgmt(c.method, `${m.fx.base}/targets/${m.target}${c.suffix}`, body);
      if (c.field) expectField(res, c.field);
      else expectStandard(res, c.message as RegExp);
      expect(await snapshot(app, m.fx)).toEqual(before);
      const auditsAfter = await app
        .knex('audit_entries')
        .where('result', 'success')
        .whereIn('subject_ulid', [m.target])
        .count({ n: '*' })
        .first();
      expect(Number(auditsAfter?.n)).toBe(Number(auditsBefore?.n));
      // The refusal itself is audited: its own entry, not whichever is newest (the reads of the
      // snapshots above are audited too), and it may be written just after the answer.
      const refusal = await eventually(() =>
        app
          .knex('audit_entries')
          .where({ http_method: c.method, http_path: `/management/v1${m.fx.base}/targets/${m.target}${c.suffix}` })
          .orderBy('ulid', 'desc')
          .first('result', 'status_code'),
      );
      expect(refusal).toMatchObject({ result: 'invalid', status_code: 422 });
    });
  });

  interface Allowed {
    name: string;
    state: State;
    method: string;
    suffix: string;
    body?: unknown | (() => unknown);
    /** Expected fields of the response's data (exact keys when `exact`). */
    data: Record<string, unknown>;
    exact?: boolean;
    /** Expected status of the target afterwards (null: deleted), and of the base target. */
    targetStatus: string | null;
    baseStatus: string;
    revisionDelta: number;
    audit: string;
  }

  const rolloutNull = { rollout_mode: null, rollout_percentage: null, rollout_status: null };
  const allowed: Allowed[] = [
    {
      name: 'draft -> published',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: { comment: 'ship' },
      data: { status: 'published', comment: 'ship', scheduled_at: null, ...rolloutNull },
      targetStatus: 'published',
      baseStatus: 'expired',
      revisionDelta: 1,
      audit: 'target.published',
    },
    {
      name: 'draft -> scheduled',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: () => ({ scheduled_at: future() }),
      data: { status: 'scheduled', published_at: null },
      targetStatus: 'scheduled',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.scheduled',
    },
    {
      name: 'scheduled -> published now',
      state: 'scheduled',
      method: 'PUT',
      suffix: '/publish',
      body: {},
      data: { status: 'published', scheduled_at: null },
      targetStatus: 'published',
      baseStatus: 'expired',
      revisionDelta: 1,
      audit: 'target.published',
    },
    {
      name: 'scheduled -> rescheduled',
      state: 'scheduled',
      method: 'PUT',
      suffix: '/publish',
      body: () => ({ scheduled_at: future(2 * day) }),
      data: { status: 'scheduled' },
      targetStatus: 'scheduled',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.scheduled',
    },
    {
      name: 'draft -> deleted',
      state: 'draft',
      method: 'DELETE',
      suffix: '',
      data: {},
      targetStatus: null,
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.deleted',
    },
    {
      name: 'scheduled -> deleted',
      state: 'scheduled',
      method: 'DELETE',
      suffix: '',
      data: {},
      targetStatus: null,
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.deleted',
    },
    {
      name: 'draft -> updated',
      state: 'draft',
      method: 'PUT',
      suffix: '',
      body: { comment: 'c' },
      data: { status: 'draft', comment: 'c' },
      targetStatus: 'draft',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.updated',
    },
    {
      name: 'draft -> manual rollout',
      state: 'draft',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'manual', rollout_percentage: 30 },
      data: { rollout_mode: 'manual', rollout_percentage: 30, rollout_status: 'active' },
      exact: true,
      targetStatus: 'draft',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.rollout_initialized',
    },
    {
      name: 'draft -> automatic rollout',
      state: 'draft',
      method: 'POST',
      suffix: '/rollout',
      body: { rollout_mode: 'automatic' },
      data: { rollout_mode: 'automatic', rollout_percentage: 1, rollout_status: 'active' },
      exact: true,
      targetStatus: 'draft',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.rollout_initialized',
    },
    {
      name: 'draft with rollout -> published keeps the rollout',
      state: 'draftWithRollout',
      method: 'PUT',
      suffix: '/publish',
      body: {},
      data: { status: 'published', rollout_mode: 'manual', rollout_percentage: 10, rollout_status: 'active' },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 1,
      audit: 'target.published',
    },
    {
      name: 'draft with rollout -> published with rollout_enabled false',
      state: 'draftWithRollout',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_enabled: false },
      data: { status: 'published', ...rolloutNull },
      targetStatus: 'published',
      baseStatus: 'expired',
      revisionDelta: 1,
      audit: 'target.published',
    },
    {
      name: 'draft -> published with a manual rollout',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 25 },
      data: { status: 'published', rollout_mode: 'manual', rollout_percentage: 25, rollout_status: 'active' },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 1,
      audit: 'target.published',
    },
    {
      name: 'draft -> published with an automatic rollout',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: { rollout_enabled: true, rollout_mode: 'automatic' },
      data: { status: 'published', rollout_mode: 'automatic', rollout_percentage: 1, rollout_status: 'active' },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 1,
      audit: 'target.published',
    },
    {
      name: 'draft -> scheduled with a rollout',
      state: 'draft',
      method: 'PUT',
      suffix: '/publish',
      body: () => ({ scheduled_at: future(), rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 5 }),
      data: { status: 'scheduled', rollout_mode: 'manual', rollout_percentage: 5, rollout_status: 'active' },
      targetStatus: 'scheduled',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.scheduled',
    },
    {
      name: 'scheduled with rollout -> published keeps the rollout',
      state: 'scheduledWithRollout',
      method: 'PUT',
      suffix: '/publish',
      body: {},
      data: { status: 'published', rollout_percentage: 10, rollout_status: 'active' },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 1,
      audit: 'target.published',
    },
    {
      name: 'active -> paused',
      state: 'active',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'pause' },
      data: { status: 'published', rollout_status: 'paused', rollout_percentage: 10 },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.rollout_updated',
    },
    {
      name: 'paused -> active',
      state: 'paused',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'resume' },
      data: { rollout_status: 'active' },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.rollout_updated',
    },
    {
      name: 'active manual -> new percentage',
      state: 'active',
      method: 'PUT',
      suffix: '/rollout',
      body: { rollout_percentage: 60 },
      data: { rollout_status: 'active', rollout_percentage: 60 },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 1,
      audit: 'target.rollout_updated',
    },
    {
      name: 'active automatic -> paused',
      state: 'activeAutomatic',
      method: 'PUT',
      suffix: '/rollout',
      body: { action: 'pause' },
      data: { rollout_status: 'paused', rollout_mode: 'automatic' },
      targetStatus: 'published',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.rollout_updated',
    },
    {
      name: 'active -> completed',
      state: 'active',
      method: 'POST',
      suffix: '/rollout/complete',
      data: { rollout_percentage: 100, rollout_status: 'completed' },
      exact: true,
      targetStatus: 'published',
      baseStatus: 'expired',
      revisionDelta: 1,
      audit: 'target.rollout_completed',
    },
    {
      name: 'paused -> completed',
      state: 'paused',
      method: 'POST',
      suffix: '/rollout/complete',
      data: { rollout_percentage: 100, rollout_status: 'completed' },
      exact: true,
      targetStatus: 'published',
      baseStatus: 'expired',
      revisionDelta: 1,
      audit: 'target.rollout_completed',
    },
    {
      name: 'active -> rollout deleted',
      state: 'active',
      method: 'DELETE',
      suffix: '/rollout',
      data: { status: 'published', ...rolloutNull },
      targetStatus: 'published',
      baseStatus: 'expired',
      revisionDelta: 1,
      audit: 'target.rollout_deleted',
    },
    {
      name: 'completed -> rollout deleted',
      state: 'completed',
      method: 'DELETE',
      suffix: '/rollout',
      data: { status: 'published', ...rolloutNull },
      targetStatus: 'published',
      baseStatus: 'expired',
      revisionDelta: 1,
      audit: 'target.rollout_deleted',
    },
    {
      name: 'draft with rollout -> rollout deleted',
      state: 'draftWithRollout',
      method: 'DELETE',
      suffix: '/rollout',
      data: { status: 'draft', ...rolloutNull },
      targetStatus: 'draft',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.rollout_deleted',
    },
    {
      name: 'scheduled with rollout -> rollout deleted',
      state: 'scheduledWithRollout',
      method: 'DELETE',
      suffix: '/rollout',
      data: { status: 'scheduled', ...rolloutNull },
      targetStatus: 'scheduled',
      baseStatus: 'published',
      revisionDelta: 0,
      audit: 'target.rollout_deleted',
    },
  ];

  describe('allowed transitions', () => {
    it.each(allowed)('$name', async (c) => {
      const m = await make(c.state);
      const rev = await revision(app, m.fx.envUlid);
      const body = typeof c.body === 'function' ? c.body() : c.body;
      const res = await app.mgmt(c.method, `${m.fx.base}/targets/${m.target}${c.suffix}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const entry = await app.knex('audit_entries').where({ subject_ulid: m.target }).orderBy('ulid', 'desc').first();
      expect(entry).toMatchObject({ action: c.audit, result: 'success', status_code: 200, subject_type: 'target' });
      if (c.method === 'DELETE' && c.suffix === '') {
        expect(res.body).toEqual({ status: 'success' });
      } else if (c.exact) {
        expect(res.body.data).toEqual({ ulid: m.target, ...c.data });
      } else {
        expect(res.body.data).toMatchObject({ ulid: m.target, ...c.data });
        expect(res.body.data).toEqual(await ok(app.mgmt('GET', `${m.fx.base}/targets/${m.target}`)));
      }
      const after = await statuses(app, m.fx);
      expect(after[m.target] ?? null).toBe(c.targetStatus);
      expect(after[m.base]).toBe(c.baseStatus);
      expect(Object.values(after).filter((s) => s === 'published').length).toBeLessThanOrEqual(2);
      expect(await revision(app, m.fx.envUlid)).toBe(rev + c.revisionDelta);
      if (c.targetStatus === null) {
        expect(await app.knex('rules').where('target_ulid', m.target).count({ n: '*' }).first()).toMatchObject({ n: 0 });
        expect((await app.mgmt('GET', `${m.fx.base}/targets/${m.target}`)).status).toBe(404);
      }
    });
  });

  // ------------------------------------------------------------------ publishing details

  describe('publishing', () => {
    it('a publish sets published_at, expires every older published target and bumps the revision once', async () => {
      const fx = await createFixture(app);
      const rev0 = await revision(app, fx.envUlid);
      const a = await publishNew(fx);
      expect(a.published_at).not.toBeNull();
      expect(await revision(app, fx.envUlid)).toBe(rev0 + 1);
      const other = await revision(app, fx.otherEnvUlid);
      const b = await publishNew(fx);
      expect(b.published_at > a.published_at).toBe(true);
      expect(await statuses(app, fx)).toEqual({ [a.ulid]: 'expired', [b.ulid]: 'published' });
      expect(await revision(app, fx.envUlid)).toBe(rev0 + 2);
      expect(await revision(app, fx.otherEnvUlid)).toBe(other);
    });

    it('a plain publish during a rollout ends it: both older published targets expire', async () => {
      const m = await make('active');
      const next = await publishNew(m.fx);
      expect(await statuses(app, m.fx)).toEqual({ [m.base]: 'expired', [m.target]: 'expired', [next.ulid]: 'published' });
    });

    it('accepts the comment stored on the draft when comments are required', async () => {
      const fx = await createFixture(app);
      await setEnvironment(app, fx, { comments_required: true });
      const d = await createDraft(fx);
      await ok(app.mgmt('PUT', `${fx.base}/targets/${d.ulid}`, { comment: 'stored' }));
      expect(await publish(fx, d.ulid)).toMatchObject({ status: 'published', comment: 'stored' });
      expect(await publishNew(fx, { comment: 'inline' })).toMatchObject({ comment: 'inline' });
    });

    it('the failed publish is audited as invalid, the successful one as target.published', async () => {
      const fx = await createFixture(app);
      const d = await createDraft(fx);
      await app.mgmt('PUT', `${fx.base}/targets/${d.ulid}/publish`, { scheduled_at: future(-1000) });
      await publish(fx, d.ulid);
      const entries = await app
        .knex('audit_entries')
        .where({ subject_ulid: d.ulid })
        .orderBy('ulid')
        .select('action', 'result', 'status_code');
      expect(entries).toEqual([
        { action: 'target.created', result: 'success', status_code: 200 },
        { action: 'target.published', result: 'invalid', status_code: 422 },
        { action: 'target.published', result: 'success', status_code: 200 },
      ]);
    });
  });
});
