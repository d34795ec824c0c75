import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { FakeFlagStore } from '../../fakes/flags-store.js';
import { FlagService, type Caller } from '../../../src/features/flags/service.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';

const clock = { now: () => new Date('2026-01-02T03:04:05.678Z') };

function recordingCaller(access = ResourceAccess.unrestricted()) {
  const committed: AuditSubject[] = [];
  const described: AuditSubject[] = [];
  const caller: Caller = {
    access,
    audit: {
      commit: async (_trx, subject) => {
        committed.push(subject);
      },
      describe: (subject) => {
        described.push(subject);
      },
    },
  };
  return { caller, committed, described };
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
    service = new FlagService({ store, clock });
  });

  describe('create', () => {
    it('applies the defaults and gives a boolean flag the values true and false, false the default', async () => {
      const { caller, committed } = recordingCaller();
      const flag = await service.create(caller, 'shop', { key: 'checkout', name: 'Checkout', type: 'boolean' });
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
      const { caller } = recordingCaller();
      const flag = await service.create(caller, 'shop', {
        key: 'limits',
        name: 'Limits',
        type: 'json',
        description: 'd',
        include_in_mobile: false,
        include_in_client: false,
      });
      expect(flag).toMatchObject({ description: 'd', include_in_mobile: false, include_in_client: false });
      expect(store.state.values).toEqual([]);
    });

    it('refuses a key already used in the project (422 on key) and changes nothing', async () => {
      const { caller, committed } = recordingCaller();
      await service.create(caller, 'shop', { key: 'checkout', name: 'A', type: 'boolean' });
      const before = structuredClone(store.state);
      const error = await service.create(caller, 'shop', { key: 'checkout', name: 'B', type: 'string' }).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toHaveProperty('key');
      expect(store.state).toEqual(before);
      expect(committed).toHaveLength(1);
      // The same key in another project is fine.
      await expect(service.create(caller, 'other', { key: 'checkout', name: 'C', type: 'string' })).resolves.toBeTruthy();
    });

    it('reports a project the caller cannot reach as not found', async () => {
      const access = new ResourceAccess(null, { projects: new Set(['prj_B']), environments: new Map() });
      const { caller } = recordingCaller(access);
      await expect(service.create(caller, 'shop', { key: 'x', name: 'X', type: 'string' })).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.list(caller, 'shop', {}, { per_page: 25 })).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.create(caller, 'other', { key: 'x', name: 'X', type: 'string' })).resolves.toBeTruthy();
      expect(store.state.flags).toHaveLength(1);
    });
  });

  describe('update', () => {
    it('replaces name and permanent and keeps omitted optional fields', async () => {
      const { caller, committed } = recordingCaller();
      const created = await service.create(caller, 'shop', {
        key: 'f',
        name: 'F',
        type: 'string',
        description: 'keep me',
        include_in_client: false,
      });
      const updated = await service.update(caller, 'shop', 'f', { name: 'G', permanent: true });
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
      expect(await service.get(caller, 'shop', 'f')).toEqual(updated);
      const cleared = await service.update(caller, 'shop', 'f', {
        name: 'G',
        permanent: false,
        description: null,
        include_in_client: true,
      });
      expect(cleared).toMatchObject({ description: null, include_in_client: true, permanent: false });
      expect(committed.map((c) => c.action)).toEqual(['flag.created', 'flag.updated', 'flag.updated']);
      expect(store.state.revisions[project.ulid]).toBe(4);
    });

    it('refuses an unknown flag with 404 and writes nothing', async () => {
      const { caller, committed } = recordingCaller();
      await expect(service.update(caller, 'shop', 'nope', { name: 'x', permanent: false })).rejects.toBeInstanceOf(NotFoundError);
      expect(committed).toEqual([]);
      expect(store.state.revisions[project.ulid]).toBe(1);
    });
  });

  describe('delete and bulk delete', () => {
    it('deletes a flag with its values and targeting', async () => {
      const { caller, committed } = recordingCaller();
      const flag = await service.create(caller, 'shop', { key: 'f', name: 'F', type: 'boolean' });
      store.state.targeting[flag.ulid] = 3;
      await service.delete(caller, 'shop', 'f');
      expect(store.state.flags).toEqual([]);
      expect(store.state.values).toEqual([]);
      expect(store.state.targeting).toEqual({});
      expect(committed.at(-1)).toMatchObject({ action: 'flag.deleted', subjectUlid: flag.ulid });
      await expect(service.get(caller, 'shop', 'f')).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.delete(caller, 'shop', 'f')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('reports deleted and missing keys in request order', async () => {
      const { caller, committed } = recordingCaller();
      for (const key of ['a', 'b', 'c']) await service.create(caller, 'shop', { key, name: key, type: 'boolean' });
      await service.create(caller, 'other', { key: 'b', name: 'b', type: 'boolean' });
      const revision = store.state.revisions[project.ulid] as number;
      const result = await service.bulkDelete(caller, 'shop', ['c', 'zz', 'a', 'yy']);
      expect(result).toEqual({ deleted: ['c', 'a'], not_found: ['zz', 'yy'] });
      expect(store.state.flags.map((f) => `${f.project_ulid}/${f.key}`).sort()).toEqual(['prj_A/b', 'prj_B/b']);
      expect(store.state.revisions[project.ulid]).toBe(revision + 1);
      expect(committed.at(-1)).toMatchObject({ action: 'flag.bulk_deleted', subjectType: 'flag', subjectLabel: 'c, a' });
    });

    it('records each deleted flag as flag.deleted, as a single delete does, before the request', async () => {
      const { caller, committed } = recordingCaller();
      const c = await service.create(caller, 'shop', { key: 'c', name: 'C', type: 'boolean' });
      const a = await service.create(caller, 'shop', { key: 'a', name: 'A', type: 'string' });
      committed.length = 0;
      await service.bulkDelete(caller, 'shop', ['c', 'zz', 'a']);
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
      const { caller, committed } = recordingCaller();
      const result = await service.bulkDelete(caller, 'shop', ['x']);
      expect(result).toEqual({ deleted: [], not_found: ['x'] });
      expect(store.state.revisions[project.ulid]).toBe(1);
      expect(committed).toHaveLength(1);
    });

    it('rolls everything back when the transaction fails', async () => {
      const { caller } = recordingCaller();
      for (const key of ['a', 'b']) await service.create(caller, 'shop', { key, name: key, type: 'boolean' });
      const before = structuredClone(store.state);
      caller.audit.commit = async () => {
        throw new UnprocessableError('audit unavailable');
      };
      await expect(service.bulkDelete(caller, 'shop', ['a', 'b'])).rejects.toThrow('audit unavailable');
      expect(store.state).toEqual(before);
    });
  });

  describe('list', () => {
    beforeEach(async () => {
      const { caller } = recordingCaller();
      await service.create(caller, 'shop', { key: 'new-checkout', name: 'New Checkout', type: 'boolean' });
      await service.create(caller, 'shop', { key: 'price', name: 'Price 100%', type: 'number' });
      await service.create(caller, 'shop', { key: 'banner_text', name: 'Banner', type: 'string' });
      await service.create(caller, 'other', { key: 'elsewhere', name: 'Checkout elsewhere', type: 'boolean' });
    });

    it('filters by type and by search on key or name, case-insensitively', async () => {
      const { caller, described } = recordingCaller();
      const keys = async (filter: Parameters<FlagService['list']>[2]) =>
        (await service.list(caller, 'shop', filter, { per_page: 25 })).data.map((f) => f.key);
      expect(await keys({})).toEqual(['new-checkout', 'price', 'banner_text']);
      expect(await keys({ type: 'boolean' })).toEqual(['new-checkout']);
      expect(await keys({ search: 'CHECK' })).toEqual(['new-checkout']);
      expect(await keys({ search: 'banner' })).toEqual(['banner_text']);
      expect(await keys({ search: '100%' })).toEqual(['price']);
      expect(await keys({ search: 'check', type: 'number' })).toEqual([]);
      expect(described[0]).toMatchObject({ action: 'flag.listed', subjectType: 'project', subjectUlid: project.ulid });
    });

    it('pages forwards and backwards with cursors', async () => {
      const { caller } = recordingCaller();
      const first = await service.list(caller, 'shop', {}, { per_page: 2 });
      expect(first.data.map((f) => f.key)).toEqual(['new-checkout', 'price']);
      expect(first.meta).toMatchObject({ per_page: 2, prev_cursor: null });
      const second = await service.list(caller, 'shop', {}, { per_page: 2, cursor: first.meta.next_cursor as string });
      expect(second.data.map((f) => f.key)).toEqual(['banner_text']);
      expect(second.meta.next_cursor).toBeNull();
      const back = await service.list(caller, 'shop', {}, { per_page: 2, cursor: second.meta.prev_cursor as string });
      expect(back.data.map((f) => f.key)).toEqual(['new-checkout', 'price']);
    });

    it('refuses a malformed cursor or one from another list', async () => {
      const { caller } = recordingCaller();
      await expect(service.list(caller, 'shop', {}, { per_page: 2, cursor: 'junk' })).rejects.toBeInstanceOf(UnprocessableError);
      const otherPage = await service.list(caller, 'other', {}, { per_page: 1 });
      expect(otherPage.meta.next_cursor).toBeNull();
      const shopPage = await service.list(caller, 'shop', {}, { per_page: 1 });
      await expect(service.list(caller, 'other', {}, { per_page: 1, cursor: shopPage.meta.next_cursor as string })).rejects.toBeInstanceOf(
        UnprocessableError,
      );
    });
  });
});
