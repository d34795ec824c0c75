import { describe, expect, it } from 'vitest';
import { auditUlid } from '../../../src/audit/audit-ids.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { FakeAuditLogStore } from '../../fakes/audit-logs-store.js';
import { fakeDb } from '../../fakes/transactor.js';
import { purgeOldAuditEntries } from '../../../src/features/audit-logs/retention.js';
import { AuditLogService, parseTime, toAuditEntry } from '../../../src/features/audit-logs/service.js';
import type { ManagementAuditRow } from '../../../src/features/audit-logs/store-types.js';
import { InvalidQueryError, UnprocessableError } from '../../../src/http/errors.js';
import { principal } from '../admin/principals.js';

const base = Date.parse('2026-03-01T12:00:00.000Z');

function row(i: number, extra: Partial<ManagementAuditRow> = {}): ManagementAuditRow {
  const at = new Date(base + i * 1000);
  return {
    ulid: auditUlid(at),
    created_at: at.toISOString(),
    actor_type: 'account',
    actor_ulid: 'usr_1',
    actor_name: 'Ada',
    actor_email: 'ada@example.test',
    token_ulid: 'tok_1',
    token_name: 'cli',
    http_method: 'GET',
    http_path: '/management/v1/projects',
    action: 'project.listed',
    subject_type: null,
    subject_ulid: null,
    subject_label: null,
    result: 'success',
    status_code: 200,
    project_ulid: null,
    environment_ulid: null,
    changes: null,
    request_ulid: null,
    request_action: null,
    ...extra,
  };
}

function setup(n = 10) {
  const store = new FakeAuditLogStore();
  for (let i = 0; i < n; i++) store.management.push(row(i));
  return { store, service: new AuditLogService({ db: fakeDb, store }) };
}

/** A caller who may see every entry. */
const all = principal();

describe('AuditLogService', () => {
  it('pages newest first by default and follows next_cursor to the end', async () => {
    const { store, service } = setup(7);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await service.listManagement(all, { per_page: 3, cursor });
      expect(page.meta.per_page).toBe(3);
      expect(page.meta.sort).toBe('created_at_desc');
      seen.push(...page.data.map((e) => e.ulid));
      if (!page.meta.next_cursor) break;
      cursor = page.meta.next_cursor;
    }
    expect(seen).toEqual(store.management.map((r) => r.ulid).reverse());
  });

  it('pages oldest first with created_at_asc; an exact last page has no next cursor', async () => {
    const { store, service } = setup(6);
    const first = await service.listManagement(all, { per_page: 3, sort: 'created_at_asc' });
    expect(first.data.map((e) => e.ulid)).toEqual(store.management.slice(0, 3).map((r) => r.ulid));
    const second = await service.listManagement(all, { per_page: 3, sort: 'created_at_asc', cursor: first.meta.next_cursor as string });
    expect(second.data.map((e) => e.ulid)).toEqual(store.management.slice(3).map((r) => r.ulid));
    expect(second.meta.next_cursor).toBeNull();
  });

  it('refuses a cursor of another list or sort order, and garbage', async () => {
    const { service } = setup(6);
    const desc = await service.listManagement(all, { per_page: 2 });
    const cursor = desc.meta.next_cursor as string;
    await expect(service.listManagement(all, { per_page: 2, sort: 'created_at_asc', cursor })).rejects.toThrow(UnprocessableError);
    await expect(service.listPublic(all, { per_page: 2, cursor })).rejects.toThrow(UnprocessableError);
    await expect(service.listManagement(all, { per_page: 2, cursor: 'bm9wZQ' })).rejects.toThrow(UnprocessableError);
  });

  it('bounds by from and to inclusively and refuses from after to', async () => {
    const { store, service } = setup(10);
    const page = await service.listManagement(all, {
      per_page: 100,
      sort: 'created_at_asc',
      from: new Date(base + 2000).toISOString(),
      to: new Date(base + 4000).toISOString(),
    });
    expect(page.data.map((e) => e.ulid)).toEqual(store.management.slice(2, 5).map((r) => r.ulid));
    await expect(
      service.listManagement(all, { per_page: 5, from: new Date(base + 5000).toISOString(), to: new Date(base).toISOString() }),
    ).rejects.toThrow(/from must not be after to/);
  });

  it('restricts a caller to its projects and environments; project-less entries only for unrestricted callers', async () => {
    const store = new FakeAuditLogStore();
    store.projects = ['prj_a', 'prj_b'];
    store.environments = [
      { ulid: 'env_a1', projectUlid: 'prj_a' },
      { ulid: 'env_a2', projectUlid: 'prj_a' },
      { ulid: 'env_b1', projectUlid: 'prj_b' },
    ];
    const rows: Array<[string, string | null, string | null]> = [
      ['a', 'prj_a', null],
      ['a1', 'prj_a', 'env_a1'],
      ['a2', 'prj_a', 'env_a2'],
      ['b1', 'prj_b', 'env_b1'],
      ['none', null, null],
    ];
    rows.forEach(([label, project, env], i) =>
      store.management.push(row(i, { subject_label: label, project_ulid: project, environment_ulid: env })),
    );
    const service = new AuditLogService({ db: fakeDb, store });
    const labels = async (access: ResourceAccess) =>
      (await service.listManagement(principal({ access }), { per_page: 100 })).data.map((e) => e.subject_label).sort();
    expect(await labels(all.access)).toEqual(['a', 'a1', 'a2', 'b1', 'none']);
    expect(await labels(new ResourceAccess(null, { projects: new Set(['prj_a']), environments: new Map() }))).toEqual(['a', 'a1', 'a2']);
    expect(
      await labels(new ResourceAccess(null, { projects: new Set(), environments: new Map([['prj_a', new Set(['env_a1'])]]) })),
    ).toEqual(['a', 'a1']);
    // A member account's own reach applies too.
    expect(await labels(new ResourceAccess(new Set(['prj_b']), null))).toEqual(['b1']);
  });

  it('ignores empty ulid filters and an empty cursor', async () => {
    const { store, service } = setup(3);
    const page = await service.listManagement(all, {
      per_page: 10,
      cursor: '',
      subject_ulid: '',
      management_token_ulid: '',
      actor_ulid: '',
    });
    expect(page.data.length).toBe(store.management.length);
    expect((await service.listManagement(all, { per_page: 10, subject_ulid: 'x' })).data).toEqual([]);
  });

  it('matches no public entry for a management_token_ulid filter', async () => {
    const store = new FakeAuditLogStore();
    const at = new Date(base);
    store.public.push({
      ulid: auditUlid(at),
      created_at: at.toISOString(),
      actor_type: 'sdk_key',
      actor_ulid: 'key_1',
      environment_ulid: 'env_1',
      environment_key: 'production',
      project_ulid: 'prj_1',
      action: 'flag.evaluated',
      subject_type: 'flag',
      subject_ulid: null,
      subject_label: 'checkout',
      result: 'success',
      status_code: 200,
      count: 1,
    });
    const service = new AuditLogService({ db: fakeDb, store });
    expect((await service.listPublic(all, { per_page: 5 })).data).toEqual([
      expect.objectContaining({ actor_type: 'sdk_key', environment: { ulid: 'env_1', key: 'production' }, subject_label: 'checkout' }),
    ]);
    expect((await service.listPublic(all, { per_page: 5, management_token_ulid: 'mgt_1' })).data).toEqual([]);
    expect((await service.listPublic(all, { per_page: 5, management_token_ulid: '' })).data.length).toBe(1);
  });

  it('maps system entries to null method, path and status', () => {
    const entry = toAuditEntry(
      row(0, {
        actor_type: 'system',
        actor_ulid: null,
        actor_name: 'system',
        actor_email: null,
        token_ulid: null,
        http_method: '',
        http_path: '',
        status_code: 0,
      }),
    );
    expect(entry).toMatchObject({
      actor: { type: 'system', ulid: null, name: 'system', email: null },
      token: null,
      http_method: null,
      http_path: null,
      status_code: null,
    });
    expect(toAuditEntry(row(0, { actor_type: null, token_ulid: null })).actor).toBeNull();
  });
});

describe('parseTime', () => {
  it('reads RFC 3339 date-times exactly, including offsets and sub-millisecond digits', () => {
    expect(parseTime('from', '2026-03-01T12:00:00Z')).toBe(base);
    expect(parseTime('from', '2026-03-01T12:00:00.007Z')).toBe(base + 7);
    expect(parseTime('from', '2026-03-01T14:00:00+02:00')).toBe(base);
    expect(parseTime('from', '2026-03-01T11:30:00-0030')).toBe(base);
    expect(parseTime('from', '2026-03-01t12:00:00.0071z')).toBe(base + 7.5);
    expect(parseTime('from', '2026-03-01T12:00:00.0070Z')).toBe(base + 7);
    expect(() => parseTime('from', 'yesterday')).toThrow(InvalidQueryError);
  });
});

describe('retention', () => {
  it('purges entries older than the retention period in batches, and nothing at 0', async () => {
    const store = new FakeAuditLogStore();
    const now = base + 100 * 86_400_000;
    for (let day = 0; day < 100; day += 10) {
      const at = new Date(base + day * 86_400_000);
      store.management.push(row(0, { ulid: auditUlid(at), created_at: at.toISOString() }));
    }
    const clock = { now: () => new Date(now) };
    expect(await purgeOldAuditEntries(store, fakeDb, clock, 0)).toEqual({ management: 0, public: 0 });
    expect(await purgeOldAuditEntries(store, fakeDb, clock, 35, 2)).toEqual({ management: 7, public: 0 });
    expect(store.management.map((r) => r.created_at.slice(0, 10))).toEqual(['2026-05-10', '2026-05-20', '2026-05-30']);
  });
});
