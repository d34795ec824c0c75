import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';
import type { Auditor } from '../../../src/features/shared/transactions.js';
import { FakeSegmentsStore } from '../../fakes/segments-store.js';
import { fakeDb } from '../../fakes/transactor.js';
import { SegmentsService } from '../../../src/features/segments/service.js';
import { principal } from '../admin/principals.js';

let tick = 0;
const clock = { now: () => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000) };

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

/** An audit trail for the calls whose entries no test reads. */
const unread: Auditor = {
  async commit() {},
  describe() {},
  fresh() {
    return this;
  },
};

async function fieldsOf(promise: Promise<unknown>): Promise<Record<string, string[]>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors;
}

describe('SegmentsService', () => {
  let store: FakeSegmentsStore;
  let service: SegmentsService;

  beforeEach(() => {
    store = new FakeSegmentsStore();
    store.state.projects.push({ ulid: 'prj_1', key: 'shop', name: 'Shop' }, { ulid: 'prj_2', key: 'other', name: 'Other' });
    service = new SegmentsService({ db: fakeDb, tx: store.tx, lookups: store.lookups, store, clock });
  });

  it('creates a segment with defaults, bumps the project revisions and audits it', async () => {
    const caller = makeCaller();
    const created = await service.create(caller.principal, 'shop', { key: 'vip', name: 'VIP' }, caller.audit);
    expect(created).toMatchObject({ key: 'vip', name: 'VIP', description: null, included: [], excluded: [], rules: [] });
    expect(created.ulid).toMatch(/^seg_/);
    expect(store.state.revisions).toEqual({ prj_1: 1 });
    expect(caller.committed).toEqual([
      {
        action: 'segment.created',
        subjectType: 'segment',
        subjectUlid: created.ulid,
        subjectLabel: 'vip',
        projectUlid: 'prj_1',
        changes: { after: created },
      },
    ]);
    expect(await service.get(caller.principal, 'shop', 'vip', caller.audit)).toEqual(created);
    expect(caller.described.at(-1)).toMatchObject({ action: 'segment.read', subjectUlid: created.ulid });
  });

  it('stores rules with normalised criteria', async () => {
    const created = await service.create(
      principal(),
      'shop',
      {
        key: 'beta',
        name: 'Beta',
        description: 'Opted in',
        included: ['u-1', 'u-2'],
        excluded: ['u-3'],
        rules: [
          { criteria: [{ selector: 'attribute', sub_selector: 'beta', comparer: 'equal', values: ['true'] }] },
          {
            criteria: [
              { selector: 'attribute', sub_selector: 'email', comparer: 'notnull' },
              { selector: 'context', comparer: 'in', values: ['org-1'] },
            ],
          },
        ],
      },
      unread,
    );
    expect(created.rules).toEqual([
      { criteria: [{ selector: 'attribute', sub_selector: 'beta', comparer: 'equal', values: ['true'] }] },
      {
        criteria: [
          { selector: 'attribute', sub_selector: 'email', comparer: 'notnull', values: [] },
          { selector: 'context', sub_selector: null, comparer: 'in', values: ['org-1'] },
        ],
      },
    ]);
    expect(created).toMatchObject({ description: 'Opted in', included: ['u-1', 'u-2'], excluded: ['u-3'] });
  });

  it('refuses a key already used in the project, but not in another project', async () => {
    await service.create(principal(), 'shop', { key: 'vip', name: 'VIP' }, unread);
    const caller = makeCaller();
    expect(await fieldsOf(service.create(caller.principal, 'shop', { key: 'vip', name: 'Again' }, caller.audit))).toHaveProperty('key');
    expect(caller.committed).toHaveLength(0);
    expect(store.state.segments).toHaveLength(1);
    expect(store.state.revisions).toEqual({ prj_1: 1 });
    await service.create(principal(), 'other', { key: 'vip', name: 'VIP elsewhere' }, unread);
    expect(store.state.segments).toHaveLength(2);
  });

  it('refuses segment selectors and invalid criteria inside segment rules, keyed by field', async () => {
    const errors = await fieldsOf(
      service.create(
        principal(),
        'shop',
        {
          key: 'bad',
          name: 'Bad',
          rules: [
            { criteria: [{ selector: 'attribute', sub_selector: 'a', comparer: 'equal', values: ['x'] }] },
            {
              criteria: [
                { selector: 'segment', comparer: 'in', values: ['vip'] },
                { selector: 'context', comparer: 'startswith', values: ['u'] },
                { selector: 'attribute', sub_selector: 'n', comparer: 'lt', values: ['ten'] },
              ],
            },
          ],
        },
        unread,
      ),
    );
    expect(Object.keys(errors).sort()).toEqual([
      'rules.1.criteria.0.selector',
      'rules.1.criteria.1.comparer',
      'rules.1.criteria.2.values.0',
    ]);
    expect(store.state.segments).toHaveLength(0);
  });

  it('replaces a segment entirely on update, keeping key, ulid and created_at', async () => {
    const created = await service.create(
      principal(),
      'shop',
      {
        key: 'beta',
        name: 'Beta',
        description: 'd',
        included: ['u-1'],
        excluded: ['u-2'],
        rules: [{ criteria: [{ selector: 'context', comparer: 'equal', values: ['u-9'] }] }],
      },
      unread,
    );
    const caller = makeCaller();
    const updated = await service.update(caller.principal, 'shop', 'beta', { name: 'Beta 2' }, caller.audit);
    expect(updated).toMatchObject({
      ulid: created.ulid,
      key: 'beta',
      name: 'Beta 2',
      description: null,
      included: [],
      excluded: [],
      rules: [],
    });
    expect(updated.created_at).toBe(created.created_at);
    expect(updated.updated_at > created.updated_at).toBe(true);
    expect(await service.get(principal(), 'shop', 'beta', unread)).toEqual(updated);
    expect(store.state.revisions).toEqual({ prj_1: 2 });
    expect(caller.committed[0]).toMatchObject({ action: 'segment.updated', subjectUlid: created.ulid });
  });

  it('deletes an unreferenced segment and refuses one that a live rule names', async () => {
    const used = await service.create(principal(), 'shop', { key: 'used', name: 'Used' }, unread);
    const free = await service.create(principal(), 'shop', { key: 'free', name: 'Free' }, unread);
    store.state.references.push(
      { segment_ulid: used.ulid, flag_key: 'checkout', target_status: 'published' },
      { segment_ulid: free.ulid, flag_key: 'old', target_status: 'expired' },
    );
    const refused = makeCaller();
    const error = await service.delete(refused.principal, 'shop', 'used', refused.audit).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableError);
    expect((error as Error).message).toContain('"checkout"');
    expect(refused.committed).toHaveLength(0);
    expect(store.state.segments.map((s) => s.key)).toEqual(['used', 'free']);
    expect(store.state.revisions).toEqual({ prj_1: 2 });

    const caller = makeCaller();
    await service.delete(caller.principal, 'shop', 'free', caller.audit);
    expect(store.state.segments.map((s) => s.key)).toEqual(['used']);
    expect(store.state.revisions).toEqual({ prj_1: 3 });
    expect(caller.committed[0]).toMatchObject({ action: 'segment.deleted', subjectUlid: free.ulid });
  });

  it('reports unknown segments and unreachable projects as not found', async () => {
    await service.create(principal(), 'shop', { key: 'vip', name: 'VIP' }, unread);
    await expect(service.get(principal(), 'shop', 'nope', unread)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.update(principal(), 'shop', 'nope', { name: 'x' }, unread)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.delete(principal(), 'shop', 'nope', unread)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.get(principal(), 'other', 'vip', unread)).rejects.toBeInstanceOf(NotFoundError);
    const otherOnly = new ResourceAccess(null, { projects: new Set(['prj_2']), environments: new Map() });
    await expect(service.get(principal({ access: otherOnly }), 'shop', 'vip', unread)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.list(principal({ access: otherOnly }), 'shop', { per_page: 25 }, unread)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.create(principal({ access: otherOnly }), 'shop', { key: 'x', name: 'X' }, unread)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(store.state.segments).toHaveLength(1);
  });

  it('lists segments of the project in creation order, page by page', async () => {
    for (const key of ['a', 'b', 'c']) await service.create(principal(), 'shop', { key, name: key }, unread);
    await service.create(principal(), 'other', { key: 'z', name: 'z' }, unread);
    const caller = makeCaller();
    const first = await service.list(caller.principal, 'shop', { per_page: 2 }, caller.audit);
    expect(first.data.map((s) => s.key)).toEqual(['a', 'b']);
    expect(first.meta.prev_cursor).toBeNull();
    const second = await service.list(caller.principal, 'shop', { per_page: 2, cursor: first.meta.next_cursor as string }, caller.audit);
    expect(second.data.map((s) => s.key)).toEqual(['c']);
    expect(second.meta.next_cursor).toBeNull();
    expect(caller.described[0]).toMatchObject({ action: 'segment.listed', projectUlid: 'prj_1' });
  });
});
