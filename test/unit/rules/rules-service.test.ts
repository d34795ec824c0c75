import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';
import { ATTRIBUTE_ONLY_COMPARERS, COMPARERS, IDENTITY_COMPARERS } from '../../../src/features/rules/criteria.js';
import { FakeRulesStore } from '../../fakes/rules-store.js';
import { fakeDb } from '../../fakes/transactor.js';
import { RulesService, type RuleWriteInput } from '../../../src/features/rules/service.js';
import type { TargetPath } from '../../../src/features/rules/store-types.js';
import type { Auditor } from '../../../src/features/shared/transactions.js';
import { principal } from '../admin/principals.js';

const clock = { now: () => new Date('2026-01-01T00:00:00.000Z') };

/** A principal with the given reach, and an audit trail that records what the service commits and describes. */
function makeCaller(access = ResourceAccess.unrestricted()) {
  const committed: AuditSubject[] = [];
  const described: AuditSubject[] = [];
  const audit: Auditor = {
    async commit(_trx, subject) {
      committed.push(subject);
    },
    describe(subject) {
      described.push(subject);
    },
    fresh() {
      return this;
    },
  };
  return { principal: principal({ access }), audit, committed, described };
}

/** A principal who may reach everything, and an audit trail for the calls whose entries no test reads. */
const anyone = principal();
const unread: Auditor = {
  async commit() {},
  describe() {},
  fresh() {
    return this;
  },
};

function seed(store: FakeRulesStore): void {
  store.state.projects.push({ ulid: 'prj_1', key: 'shop', name: 'Shop' }, { ulid: 'prj_2', key: 'other', name: 'Other' });
  store.state.environments.push({
    ulid: 'env_1',
    key: 'production',
    name: 'Production',
    project_ulid: 'prj_1',
    comments_required: false,
    confirmation_required: false,
  });
  store.state.flags.push(
    { ulid: 'flg_1', key: 'checkout', name: 'Checkout', type: 'boolean', project_ulid: 'prj_1' },
    { ulid: 'flg_2', key: 'banner', name: 'Banner', type: 'string', project_ulid: 'prj_1' },
  );
  store.state.values.push(
    { ulid: 'val_true', flag_ulid: 'flg_1' },
    { ulid: 'val_false', flag_ulid: 'flg_1' },
    { ulid: 'val_banner', flag_ulid: 'flg_2' },
  );
  store.state.targets.push(
    { ulid: 'tgt_draft', status: 'draft', flag_ulid: 'flg_1', environment_ulid: 'env_1' },
    { ulid: 'tgt_draft2', status: 'draft', flag_ulid: 'flg_1', environment_ulid: 'env_1' },
    { ulid: 'tgt_published', status: 'published', flag_ulid: 'flg_1', environment_ulid: 'env_1' },
    { ulid: 'tgt_scheduled', status: 'scheduled', flag_ulid: 'flg_1', environment_ulid: 'env_1' },
    { ulid: 'tgt_expired', status: 'expired', flag_ulid: 'flg_1', environment_ulid: 'env_1' },
  );
  store.state.segments.push(
    { ulid: 'seg_beta', project_ulid: 'prj_1', key: 'beta' },
    { ulid: 'seg_vip', project_ulid: 'prj_1', key: 'vip' },
    { ulid: 'seg_elsewhere', project_ulid: 'prj_2', key: 'elsewhere' },
  );
}

const path = (targetUlid = 'tgt_draft'): TargetPath => ({
  projectKey: 'shop',
  flagKey: 'checkout',
  environmentKey: 'production',
  targetUlid,
});

const body = (overrides: Partial<RuleWriteInput> = {}): RuleWriteInput => ({
  value_ulid: 'val_true',
  description: 'Paying users',
  criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['paid'] }],
  ...overrides,
});

async function fieldsOf(promise: Promise<unknown>): Promise<Record<string, string[]>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors;
}

describe('RulesService', () => {
  let store: FakeRulesStore;
  let service: RulesService;

  beforeEach(() => {
    store = new FakeRulesStore();
    seed(store);
    service = new RulesService({ db: fakeDb, tx: store.tx, store, clock });
  });

  describe('create', () => {
    it('appends rules after the existing ones and normalises criteria', async () => {
      const caller = makeCaller();
      const first = await service.create(caller.principal, path(), body({ description: 'first' }), caller.audit);
      const second = await service.create(
        caller.principal,
        path(),
        body({
          description: 'second',
          criteria: [
            { selector: 'attribute', sub_selector: 'email', comparer: 'isnull' },
            { selector: 'context', comparer: 'in', values: ['u-1', 'u-2'] },
          ],
        }),
        caller.audit,
      );
      expect(first.position).toBe(0);
      expect(second.position).toBe(1);
      expect(first.ulid).toMatch(/^rul_/);
      expect(second.target_ulid).toBe('tgt_draft');
      expect(second.criteria.data).toEqual([
        expect.objectContaining({ selector: 'attribute', sub_selector: 'email', comparer: 'isnull', position: 0, values: { data: [] } }),
        expect.objectContaining({
          selector: 'context',
          sub_selector: null,
          comparer: 'in',
          position: 1,
          values: { data: [{ value: 'u-1' }, { value: 'u-2' }] },
        }),
      ]);
      expect(second.criteria.data[0]?.ulid).toMatch(/^crt_/);
      const listed = await service.list(caller.principal, path(), caller.audit);
      expect(listed.map((r) => r.description)).toEqual(['first', 'second']);
      expect(listed[1]).toEqual(second);
      expect(caller.committed.map((c) => c.action)).toEqual(['target_rule.created', 'target_rule.created']);
      expect(caller.committed[0]).toMatchObject({
        subjectType: 'target_rule',
        subjectUlid: first.ulid,
        projectUlid: 'prj_1',
        environmentUlid: 'env_1',
      });
      expect(caller.described.at(-1)).toMatchObject({ action: 'target_rule.listed', subjectUlid: 'tgt_draft' });
    });

    it('links segment criteria to their segments', async () => {
      const rule = await service.create(
        anyone,
        path(),
        body({ criteria: [{ selector: 'segment', comparer: 'in', values: ['beta', 'vip', 'beta'] }] }),
        unread,
      );
      const criterion = rule.criteria.data[0]!;
      expect(
        store.state.links
          .filter((l) => l.criterion_ulid === criterion.ulid)
          .map((l) => l.segment_ulid)
          .sort(),
      ).toEqual(['seg_beta', 'seg_vip']);
    });

    it.each(['published', 'scheduled', 'expired'])('refuses a %s target with the standard envelope error', async (status) => {
      const caller = makeCaller();
      await expect(service.create(caller.principal, path(`tgt_${status}`), body(), caller.audit)).rejects.toBeInstanceOf(
        UnprocessableError,
      );
      expect(store.state.rules).toHaveLength(0);
      expect(caller.committed).toHaveLength(0);
    });

    it('refuses a value of another flag on value_ulid', async () => {
      expect(await fieldsOf(service.create(anyone, path(), body({ value_ulid: 'val_banner' }), unread))).toHaveProperty('value_ulid');
      expect(await fieldsOf(service.create(anyone, path(), body({ value_ulid: 'val_missing' }), unread))).toHaveProperty('value_ulid');
      expect(store.state.rules).toHaveLength(0);
    });

    it('reports unknown paths as not found', async () => {
      await expect(service.create(anyone, { ...path(), targetUlid: 'tgt_missing' }, body(), unread)).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.create(anyone, { ...path(), flagKey: 'banner' }, body(), unread)).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.create(anyone, { ...path(), projectKey: 'nope' }, body(), unread)).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.create(anyone, { ...path(), environmentKey: 'nope' }, body(), unread)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('hides projects and environments the caller has no grant for', async () => {
      const otherProject = new ResourceAccess(null, { projects: new Set(['prj_2']), environments: new Map() });
      await expect(service.list(principal({ access: otherProject }), path(), unread)).rejects.toBeInstanceOf(NotFoundError);
      const otherEnvironment = new ResourceAccess(null, {
        projects: new Set(),
        environments: new Map([['prj_1', new Set(['env_other'])]]),
      });
      await expect(service.create(principal({ access: otherEnvironment }), path(), body(), unread)).rejects.toBeInstanceOf(NotFoundError);
      expect(store.state.rules).toHaveLength(0);
    });
  });

  describe('criteria validation', () => {
    // A value each comparer reads: a number, a version, a date-time with an offset, or text.
    const sample = (comparer: string): string =>
      /^(gt|gte|lt|lte)$/.test(comparer)
        ? '10'
        : comparer.startsWith('semver_')
          ? '1.2.3'
          : comparer === 'before' || comparer === 'after'
            ? '2026-01-01T00:00:00Z'
            : 'x';
    const valuesFor = (comparer: string) => (comparer === 'isnull' || comparer === 'notnull' ? {} : { values: [sample(comparer)] });

    for (const selector of ['attribute', 'context', 'segment'] as const) {
      for (const comparer of COMPARERS) {
        const allowed = (IDENTITY_COMPARERS as readonly string[]).includes(comparer) || selector === 'attribute';
        it(`${allowed ? 'accepts' : 'refuses'} ${selector} ${comparer}`, async () => {
          const criterion = {
            selector,
            comparer,
            ...(selector === 'attribute' ? { sub_selector: 'plan' } : {}),
            ...(selector === 'segment' ? { values: ['beta'] } : valuesFor(comparer)),
          };
          const attempt = service.create(anyone, path(), body({ criteria: [criterion] }), unread);
          if (allowed) {
            const rule = await attempt;
            expect(rule.criteria.data[0]).toMatchObject({ selector, comparer });
          } else {
            expect(Object.keys(await fieldsOf(attempt))).toContain('criteria.0.comparer');
            expect(store.state.rules).toHaveLength(0);
          }
        });
      }
    }

    it('lists 4 comparers for every selector and 20 more for attributes', () => {
      expect(IDENTITY_COMPARERS).toHaveLength(4);
      expect(ATTRIBUTE_ONLY_COMPARERS).toHaveLength(20);
    });

    it.each([
      ['semver_gte', '1.2', 'must be a semantic version'],
      ['before', '2026-01-01', 'must be a date-time with an offset'],
      ['matches', '(a)\\1', 'linear time'],
    ])('%s refuses the value %s, naming it', async (comparer, value, message) => {
      const errors = await fieldsOf(
        service.create(
          anyone,
          path(),
          body({ criteria: [{ selector: 'attribute', sub_selector: 'v', comparer, values: [sample(comparer), value] }] }),
          unread,
        ),
      );
      expect(Object.keys(errors)).toEqual(['criteria.0.values.1']);
      expect(JSON.stringify(errors)).toContain(message);
    });

    it.each(['isnull', 'notnull'])('%s takes no values: present (even empty) is refused', async (comparer) => {
      const ok = await service.create(
        anyone,
        path(),
        body({ criteria: [{ selector: 'attribute', sub_selector: 'email', comparer }] }),
        unread,
      );
      expect(ok.criteria.data[0]?.values.data).toEqual([]);
      for (const values of [[], ['x']]) {
        const errors = await fieldsOf(
          service.create(anyone, path(), body({ criteria: [{ selector: 'attribute', sub_selector: 'email', comparer, values }] }), unread),
        );
        expect(errors).toHaveProperty(['criteria.0.values']);
      }
      expect(store.state.rules).toHaveLength(1);
    });

    it('requires at least one value for the other comparers', async () => {
      const missing = await fieldsOf(
        service.create(anyone, path(), body({ criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'equal' }] }), unread),
      );
      expect(missing).toHaveProperty(['criteria.0.values']);
      const empty = await fieldsOf(
        service.create(anyone, path(), body({ criteria: [{ selector: 'context', comparer: 'in', values: [] }] }), unread),
      );
      expect(empty).toHaveProperty(['criteria.0.values']);
    });

    it('requires numbers for ordering comparers', async () => {
      const errors = await fieldsOf(
        service.create(
          anyone,
          path(),
          body({ criteria: [{ selector: 'attribute', sub_selector: 'age', comparer: 'gte', values: ['18', 'eighteen', '1e3'] }] }),
          unread,
        ),
      );
      expect(Object.keys(errors)).toEqual(['criteria.0.values.1']);
    });

    it('requires sub_selector for attribute, forbids it for segment, allows it for context', async () => {
      const noSub = await fieldsOf(
        service.create(anyone, path(), body({ criteria: [{ selector: 'attribute', comparer: 'equal', values: ['x'] }] }), unread),
      );
      expect(noSub).toHaveProperty(['criteria.0.sub_selector']);
      const nullSub = await fieldsOf(
        service.create(
          anyone,
          path(),
          body({ criteria: [{ selector: 'attribute', sub_selector: null, comparer: 'equal', values: ['x'] }] }),
          unread,
        ),
      );
      expect(nullSub).toHaveProperty(['criteria.0.sub_selector']);
      const segmentSub = await fieldsOf(
        service.create(
          anyone,
          path(),
          body({ criteria: [{ selector: 'segment', sub_selector: 'user', comparer: 'in', values: ['beta'] }] }),
          unread,
        ),
      );
      expect(segmentSub).toHaveProperty(['criteria.0.sub_selector']);
      const context = await service.create(
        anyone,
        path(),
        body({ criteria: [{ selector: 'context', sub_selector: 'organization', comparer: 'equal', values: ['org-1'] }] }),
        unread,
      );
      expect(context.criteria.data[0]?.sub_selector).toBe('organization');
    });

    it('requires segment values to be segments of the project', async () => {
      const errors = await fieldsOf(
        service.create(
          anyone,
          path(),
          body({ criteria: [{ selector: 'segment', comparer: 'in', values: ['beta', 'elsewhere', 'ghost'] }] }),
          unread,
        ),
      );
      expect(Object.keys(errors).sort()).toEqual(['criteria.0.values.1', 'criteria.0.values.2']);
      expect(store.state.rules).toHaveLength(0);
      expect(store.state.links).toHaveLength(0);
    });

    it('reports every problem of the body at once, keyed by field', async () => {
      const errors = await fieldsOf(
        service.create(
          anyone,
          path(),
          body({
            value_ulid: 'val_banner',
            criteria: [
              { selector: 'attribute', sub_selector: 'a', comparer: 'equal', values: ['x'] },
              { selector: 'context', comparer: 'gt', values: ['1'] },
              { selector: 'attribute', comparer: 'notnull', values: [] },
            ],
          }),
          unread,
        ),
      );
      expect(Object.keys(errors).sort()).toEqual(['criteria.1.comparer', 'criteria.2.sub_selector', 'criteria.2.values', 'value_ulid']);
    });
  });

  describe('update', () => {
    it('replaces value, description and every criterion (new ulids), keeping the position', async () => {
      const caller = makeCaller();
      await service.create(caller.principal, path(), body({ description: 'zero' }), caller.audit);
      const rule = await service.create(
        caller.principal,
        path(),
        body({
          criteria: [
            { selector: 'segment', comparer: 'in', values: ['beta'] },
            { selector: 'context', comparer: 'equal', values: ['u'] },
          ],
        }),
        caller.audit,
      );
      const oldCriteria = rule.criteria.data.map((c) => c.ulid);
      const updated = await service.update(
        caller.principal,
        { ...path(), ruleUlid: rule.ulid },
        { value_ulid: 'val_false', description: 'replaced', criteria: [{ selector: 'segment', comparer: 'notin', values: ['vip'] }] },
        caller.audit,
      );
      expect(updated).toMatchObject({
        ulid: rule.ulid,
        position: 1,
        value_ulid: 'val_false',
        description: 'replaced',
        created_at: rule.created_at,
      });
      expect(updated.criteria.data).toHaveLength(1);
      expect(oldCriteria).not.toContain(updated.criteria.data[0]?.ulid);
      expect(store.state.criteria.filter((c) => c.rule_ulid === rule.ulid)).toHaveLength(1);
      expect(store.state.links.map((l) => l.segment_ulid)).toEqual(['seg_vip']);
      expect((await service.list(caller.principal, path(), caller.audit))[1]).toEqual(updated);
      expect(caller.committed.at(-1)).toMatchObject({ action: 'target_rule.updated', subjectUlid: rule.ulid });
    });

    it('refuses unknown rules, rules of another target, non-drafts and invalid bodies without changing anything', async () => {
      const rule = await service.create(anyone, path(), body(), unread);
      const before = structuredClone(store.state);
      await expect(service.update(anyone, { ...path(), ruleUlid: 'rul_missing' }, body(), unread)).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.update(anyone, { ...path('tgt_draft2'), ruleUlid: rule.ulid }, body(), unread)).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(
        service.update(anyone, { ...path(), ruleUlid: rule.ulid }, body({ value_ulid: 'val_banner', description: 'x' }), unread),
      ).rejects.toBeInstanceOf(ValidationError);
      store.state.targets[0]!.status = 'published';
      await expect(service.update(anyone, { ...path(), ruleUlid: rule.ulid }, body({ description: 'x' }), unread)).rejects.toBeInstanceOf(
        UnprocessableError,
      );
      store.state.targets[0]!.status = 'draft';
      expect(store.state).toEqual(before);
    });
  });

  describe('delete', () => {
    it('removes the rule with its criteria and links and renumbers the rest', async () => {
      const caller = makeCaller();
      const a = await service.create(caller.principal, path(), body({ description: 'a' }), caller.audit);
      const b = await service.create(
        caller.principal,
        path(),
        body({ description: 'b', criteria: [{ selector: 'segment', comparer: 'in', values: ['beta'] }] }),
        caller.audit,
      );
      const c = await service.create(caller.principal, path(), body({ description: 'c' }), caller.audit);
      await service.delete(caller.principal, { ...path(), ruleUlid: b.ulid }, caller.audit);
      const listed = await service.list(caller.principal, path(), caller.audit);
      expect(listed.map((r) => [r.ulid, r.position])).toEqual([
        [a.ulid, 0],
        [c.ulid, 1],
      ]);
      expect(store.state.criteria.some((x) => x.rule_ulid === b.ulid)).toBe(false);
      expect(store.state.links).toHaveLength(0);
      expect(caller.committed.at(-1)).toMatchObject({ action: 'target_rule.deleted', subjectUlid: b.ulid });
    });

    it('refuses on a non-draft target and for unknown rules', async () => {
      const rule = await service.create(anyone, path(), body(), unread);
      await expect(service.delete(anyone, { ...path(), ruleUlid: 'rul_nope' }, unread)).rejects.toBeInstanceOf(NotFoundError);
      store.state.targets[0]!.status = 'scheduled';
      await expect(service.delete(anyone, { ...path(), ruleUlid: rule.ulid }, unread)).rejects.toBeInstanceOf(UnprocessableError);
      expect(store.state.rules).toHaveLength(1);
    });
  });

  describe('reorder', () => {
    async function fourRules() {
      const caller = makeCaller();
      const rules = [];
      for (const d of ['A', 'B', 'C', 'D'])
        rules.push(await service.create(caller.principal, path(), body({ description: d }), caller.audit));
      return Object.fromEntries(rules.map((r) => [r.description, r.ulid])) as Record<'A' | 'B' | 'C' | 'D', string>;
    }
    const order = async () => (await service.list(anyone, path(), unread)).map((r) => `${r.description}${r.position}`).join(' ');

    it('sets the whole order when every rule is listed', async () => {
      const u = await fourRules();
      const caller = makeCaller();
      const result = await service.reorder(
        caller.principal,
        path(),
        {
          rules: [
            { ulid: u.A, order: 40 },
            { ulid: u.B, order: 30 },
            { ulid: u.C, order: 20 },
            { ulid: u.D, order: 10 },
          ],
        },
        caller.audit,
      );
      expect(result.map((r) => `${r.description}${r.position}`).join(' ')).toBe('D0 C1 B2 A3');
      expect(await order()).toBe('D0 C1 B2 A3');
      expect(caller.committed).toEqual([expect.objectContaining({ action: 'target_rule.reordered', subjectUlid: 'tgt_draft' })]);
    });

    it('reorders a subset among its own positions; the others keep theirs', async () => {
      const u = await fourRules();
      await service.reorder(
        anyone,
        path(),
        {
          rules: [
            { ulid: u.D, order: 0 },
            { ulid: u.A, order: 1 },
          ],
        },
        unread,
      );
      expect(await order()).toBe('D0 B1 C2 A3');
      await service.reorder(
        anyone,
        path(),
        {
          rules: [
            { ulid: u.C, order: 5 },
            { ulid: u.B, order: 6 },
          ],
        },
        unread,
      );
      expect(await order()).toBe('D0 C1 B2 A3');
    });

    it('keeps the request order on equal `order` values and ignores rules of other targets', async () => {
      const u = await fourRules();
      const foreign = await service.create(anyone, path('tgt_draft2'), body({ description: 'F' }), unread);
      await service.reorder(
        anyone,
        path(),
        {
          rules: [
            { ulid: u.C, order: 1 },
            { ulid: foreign.ulid, order: 0 },
            { ulid: 'rul_unknown', order: 0 },
            { ulid: u.A, order: 1 },
          ],
        },
        unread,
      );
      expect(await order()).toBe('C0 B1 A2 D3');
      expect((await service.list(anyone, path('tgt_draft2'), unread))[0]).toMatchObject({ ulid: foreign.ulid, position: 0 });
    });

    it('only foreign ulids: nothing changes, the list is returned', async () => {
      await fourRules();
      const result = await service.reorder(anyone, path(), { rules: [{ ulid: 'rul_x', order: 0 }] }, unread);
      expect(result.map((r) => r.description)).toEqual(['A', 'B', 'C', 'D']);
    });

    it('refuses a ulid listed twice and non-draft targets without changing anything', async () => {
      const u = await fourRules();
      const errors = await fieldsOf(
        service.reorder(
          anyone,
          path(),
          {
            rules: [
              { ulid: u.B, order: 0 },
              { ulid: u.B, order: 1 },
            ],
          },
          unread,
        ),
      );
      expect(Object.keys(errors)).toEqual(['rules.1.ulid']);
      store.state.targets[0]!.status = 'published';
      await expect(service.reorder(anyone, path(), { rules: [{ ulid: u.D, order: 0 }] }, unread)).rejects.toBeInstanceOf(
        UnprocessableError,
      );
      store.state.targets[0]!.status = 'draft';
      expect(await order()).toBe('A0 B1 C2 D3');
    });
  });
});
