import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { FakeFlagStore } from '../../fakes/flags-store.js';
import { fakeDb } from '../../fakes/transactor.js';
import { FlagService } from '../../../src/features/flags/service.js';
import type { Auditor } from '../../../src/features/shared/transactions.js';
import { principal as principalWith } from '../admin/principals.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';

const clock = { now: () => new Date('2026-01-02T03:04:05.678Z') };

/** A principal with the given reach, and an audit trail that records what the service commits and describes. */
function recordingCaller(access = ResourceAccess.unrestricted()) {
  const committed: AuditSubject[] = [];
  const described: AuditSubject[] = [];
  const audit: Auditor = {
    commit: async (_trx, subject) => {
      committed.push(subject);
    },
    describe: (subject) => {
      described.push(subject);
    },
    fresh: () => audit,
  };
  return { principal: principalWith({ access }), audit, committed, described };
}

describe('FlagService', () => {
  let store: FakeFlagStore;
  let service: FlagService;
  const project = { ulid: 'prj_A', key: 'shop', name: 'Shop' };
  const other = { ulid: 'prj_B', key: 'other', name: 'Other' };

  beforeEach(() => {
    store = new FakeFlagStore();
    store.addProject(project);
    store.addProject(other);
    service = new FlagService({ db: fakeDb, tx: store.tx, lookups: store.lookups, store, clock });
  });

  describe('create', () => {
    it('applies the defaults and gives a boolean flag the values true and false, false the default', async () => {
      const { principal, audit, committed } = recordingCaller();
      const flag = await service.create(principal, 'shop', { key: 'checkout', name: 'Checkout', type: 'boolean' }, audit);
      expect(flag).toMatchObject({
        key: 'checkout',
        type: 'boolean',
        description: null,
        permanent: false,
        include_in_mobile: true,
        include_in_client: true,
        created_at: '2026-01-02T03:04:05.678Z',
        updated_at: '2026-01-02T03:04:05.678Z',
      });
      expect(flag.ulid).toMatch(/^flg_[0-9A-Z]{26}$/);
      const values = store.state.values.filter((v) => v.flag_ulid === flag.ulid);
      expect(values.map((v) => [v.display, v.is_default])).toEqual([
        ['true', false],
        ['false', true],
      ]);
      expect(store.state.revisions[project.ulid]).toBe(2);
      expect(store.state.revisions[other.ulid]).toBe(1);
      expect(committed).toEqual([
        {
          action: 'flag.created',
          subjectType: 'flag',
          subjectUlid: flag.ulid,
          subjectLabel: 'checkout',
          projectUlid: project.ulid,
          changes: { after: flag },
        },
      ]);
    });

    it('creates other types without values and keeps given options', async () => {
      const { principal, audit } = recordingCaller();
      const flag = await service.create(
        principal,
        'shop',
        {
          key: 'limits',
          name: 'Limits',
          type: 'json',
          description: 'd',
          include_in_mobile: false,
          include_in_client: false,
        },
        audit,
      );
      expect(flag).toMatchObject({ description: 'd', include_in_mobile: false, include_in_client: false });
      expect(store.state.values).toEqual([]);
    });

    it('refuses a key already used in the project (422 on key) and changes nothing', async () => {
      const { principal, audit, committed } = recordingCaller();
      await service.create(principal, 'shop', { key: 'checkout', name: 'A', type: 'boolean' }, audit);
      const before = structuredClone(store.state);
      const error = await service.create(principal, 'shop', { key: 'checkout', name: 'B', type: 'string' }, audit).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toHaveProperty('key');
      expect(store.state).toEqual(before);
      expect(committed).toHaveLength(1);
      // The same key in another project is fine.
      await expect(service.create(principal, 'other', { key: 'checkout', name: 'C', type: 'string' }, audit)).resolves.toBeTruthy();
    });

    it('reports a project the caller cannot reach as not found', async () => {
      const access = new ResourceAccess(null, { projects: new Set(['prj_B']), environments: new Map() });
      const { principal, audit } = recordingCaller(access);
      await expect(service.create(principal, 'shop', { key: 'x', name: 'X', type: 'string' }, audit)).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.list(principal, 'shop', {}, { per_page: 25 }, undefined, undefined, audit)).rejects.toBeInstanceOf(
        NotFoundError,
      );
      await expect(service.create(principal, 'other', { key: 'x', name: 'X', type: 'string' }, audit)).resolves.toBeTruthy();
      expect(store.state.flags).toHaveLength(1);
    });
  });

  describe('update', () => {
    it('replaces name and permanent and keeps omitted optional fields', async () => {
      const { principal, audit, committed } = recordingCaller();
      const created = await service.create(
        principal,
        'shop',
        {
          key: 'f',
          name: 'F',
          type: 'string',
          description: 'keep me',
          include_in_client: false,
        },
        audit,
      );
      const updated = await service.update(principal, 'shop', 'f', { name: 'G', permanent: true }, audit);
      expect(updated).toMatchObject({
        ulid: created.ulid,
        key: 'f',
        type: 'string',
        name: 'G',
        permanent: true,
        description: 'keep me',
        include_in_client: false,
        include_in_mobile: true,
      });
      expect(await service.get(principal, 'shop', 'f', undefined, audit)).toEqual(updated);
      const cleared = await service.update(
        principal,
        'shop',
        'f',
        {
          name: 'G',
          permanent: false,
          description: null,
          include_in_client: true,
        },
        audit,
      );
      expect(cleared).toMatchObject({ description: null, include_in_client: true, permanent: false });
      expect(committed.map((c) => c.action)).toEqual(['flag.created', 'flag.updated', 'flag.updated']);
      expect(store.state.revisions[project.ulid]).toBe(4);
    });

    it('refuses an unknown flag with 404 and writes nothing', async () => {
      const { principal, audit, committed } = recordingCaller();
      await expect(service.update(principal, 'shop', 'nope', { name: 'x', permanent: false }, audit)).rejects.toBeInstanceOf(NotFoundError);
      expect(committed).toEqual([]);
      expect(store.state.revisions[project.ulid]).toBe(1);
    });
  });

  describe('delete and bulk delete', () => {
    it('deletes a flag with its values and targeting', async () => {
      const { principal, audit, committed } = recordingCaller();
      const flag = await service.create(principal, 'shop', { key: 'f', name: 'F', type: 'boolean' }, audit);
      store.state.targeting[flag.ulid] = 3;
      await service.delete(principal, 'shop', 'f', audit);
      expect(store.state.flags).toEqual([]);
      expect(store.state.values).toEqual([]);
      expect(store.state.targeting).toEqual({});
      expect(committed.at(-1)).toMatchObject({ action: 'flag.deleted', subjectUlid: flag.ulid });
      await expect(service.get(principal, 'shop', 'f', undefined, audit)).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.delete(principal, 'shop', 'f', audit)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('reports deleted and missing keys in request order', async () => {
      const { principal, audit, committed } = recordingCaller();
      for (const key of ['a', 'b', 'c']) await service.create(principal, 'shop', { key, name: key, type: 'boolean' }, audit);
      await service.create(principal, 'other', { key: 'b', name: 'b', type: 'boolean' }, audit);
      const revision = store.state.revisions[project.ulid] as number;
      const result = await service.bulkDelete(principal, 'shop', ['c', 'zz', 'a', 'yy'], audit);
      expect(result).toEqual({ deleted: ['c', 'a'], not_found: ['zz', 'yy'] });
      expect(store.state.flags.map((f) => `${f.project_ulid}/${f.key}`).sort()).toEqual(['prj_A/b', 'prj_B/b']);
      expect(store.state.revisions[project.ulid]).toBe(revision + 1);
      expect(committed.at(-1)).toMatchObject({ action: 'flag.bulk_deleted', subjectType: 'flag', subjectLabel: 'c, a' });
    });

    it('records each deleted flag as flag.deleted, as a single delete does, before the request', async () => {
      const { principal, audit, committed } = recordingCaller();
      const c = await service.create(principal, 'shop', { key: 'c', name: 'C', type: 'boolean' }, audit);
      const a = await service.create(principal, 'shop', { key: 'a', name: 'A', type: 'string' }, audit);
      committed.length = 0;
      await service.bulkDelete(principal, 'shop', ['c', 'zz', 'a'], audit);
      expect(committed).toEqual([
        {
          action: 'flag.deleted',
          subjectType: 'flag',
          subjectUlid: c.ulid,
          subjectLabel: 'c',
          projectUlid: project.ulid,
          changes: { before: c },
        },
        {
          action: 'flag.deleted',
          subjectType: 'flag',
          subjectUlid: a.ulid,
          subjectLabel: 'a',
          projectUlid: project.ulid,
          changes: { before: a },
        },
        expect.objectContaining({ action: 'flag.bulk_deleted', subjectLabel: 'c, a', changes: { before: [c, a] } }),
      ]);
    });

    it('changes nothing when no key matches, but still records the request', async () => {
      const { principal, audit, committed } = recordingCaller();
      const result = await service.bulkDelete(principal, 'shop', ['x'], audit);
      expect(result).toEqual({ deleted: [], not_found: ['x'] });
      expect(store.state.revisions[project.ulid]).toBe(1);
      expect(committed).toHaveLength(1);
    });

    it('rolls everything back when the transaction fails', async () => {
      const { principal, audit } = recordingCaller();
      for (const key of ['a', 'b']) await service.create(principal, 'shop', { key, name: key, type: 'boolean' }, audit);
      const before = structuredClone(store.state);
      audit.commit = async () => {
        throw new UnprocessableError('audit unavailable');
      };
      await expect(service.bulkDelete(principal, 'shop', ['a', 'b'], audit)).rejects.toThrow('audit unavailable');
      expect(store.state).toEqual(before);
    });
  });

  describe('list', () => {
    beforeEach(async () => {
      const { principal, audit } = recordingCaller();
      await service.create(principal, 'shop', { key: 'new-checkout', name: 'New Checkout', type: 'boolean' }, audit);
      await service.create(principal, 'shop', { key: 'price', name: 'Price 100%', type: 'number' }, audit);
      await service.create(principal, 'shop', { key: 'banner_text', name: 'Banner', type: 'string' }, audit);
      await service.create(principal, 'other', { key: 'elsewhere', name: 'Checkout elsewhere', type: 'boolean' }, audit);
    });

    it('filters by type and by search on key or name, case-insensitively', async () => {
      const { principal, audit, described } = recordingCaller();
      const keys = async (filter: Parameters<FlagService['list']>[2]) =>
        (await service.list(principal, 'shop', filter, { per_page: 25 }, undefined, undefined, audit)).data.map((f) => f.key);
      expect(await keys({})).toEqual(['new-checkout', 'price', 'banner_text']);
      expect(await keys({ type: 'boolean' })).toEqual(['new-checkout']);
      expect(await keys({ search: 'CHECK' })).toEqual(['new-checkout']);
      expect(await keys({ search: 'banner' })).toEqual(['banner_text']);
      expect(await keys({ search: '100%' })).toEqual(['price']);
      expect(await keys({ search: 'check', type: 'number' })).toEqual([]);
      expect(described[0]).toMatchObject({ action: 'flag.listed', subjectType: 'project', subjectUlid: project.ulid });
    });

    it('pages forwards and backwards with cursors', async () => {
      const { principal, audit } = recordingCaller();
      const first = await service.list(principal, 'shop', {}, { per_page: 2 }, undefined, undefined, audit);
      expect(first.data.map((f) => f.key)).toEqual(['new-checkout', 'price']);
      expect(first.meta).toMatchObject({ per_page: 2, prev_cursor: null });
      const second = await service.list(
        principal,
        'shop',
        {},
        { per_page: 2, cursor: first.meta.next_cursor as string },
        undefined,
        undefined,
        audit,
      );
      expect(second.data.map((f) => f.key)).toEqual(['banner_text']);
      expect(second.meta.next_cursor).toBeNull();
      const back = await service.list(
        principal,
        'shop',
        {},
        { per_page: 2, cursor: second.meta.prev_cursor as string },
        undefined,
        undefined,
        audit,
      );
      expect(back.data.map((f) => f.key)).toEqual(['new-checkout', 'price']);
    });

    it('refuses a malformed cursor or one from another list', async () => {
      const { principal, audit } = recordingCaller();
      await expect(
        service.list(principal, 'shop', {}, { per_page: 2, cursor: 'junk' }, undefined, undefined, audit),
      ).rejects.toBeInstanceOf(UnprocessableError);
      const otherPage = await service.list(principal, 'other', {}, { per_page: 1 }, undefined, undefined, audit);
      expect(otherPage.meta.next_cursor).toBeNull();
      const shopPage = await service.list(principal, 'shop', {}, { per_page: 1 }, undefined, undefined, audit);
      await expect(
        service.list(principal, 'other', {}, { per_page: 1, cursor: shopPage.meta.next_cursor as string }, undefined, undefined, audit),
      ).rejects.toBeInstanceOf(UnprocessableError);
    });
  });
});
