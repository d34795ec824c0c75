/**
 * The public audit log's reader and retention on its two tables (migration 0020): rows written
 * straight into public_audit_parts and public_audit_requests, listed by KnexAuditLogStore and
 * compared with the same query answered in JS (FakeAuditLogStore's filters) over the requests
 * joined with their parts.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { publicAuditColumns } from '../../src/audit/audit-columns.js';
import { auditUlid, auditUlidLowerBound, auditUlidUpperBound } from '../../src/audit/audit-ids.js';
import { partColumns, publicAuditPartId, type PartValue } from '../../src/audit/public-audit-parts.js';
import { purgeOldAuditEntries } from '../../src/features/audit-logs/retention.js';
import { KnexAuditLogStore, PUBLIC_PART_RANGES_MAX } from '../../src/features/audit-logs/store.js';
import type { AuditQuery, AuditSort, PublicAuditStoredRow } from '../../src/features/audit-logs/store-types.js';
import { FakeAuditLogStore } from '../fakes/audit-logs-store.js';
import { fakeDb } from '../fakes/transactor.js';
import { postgresPlan, rowsRead } from '../support/postgres-plans.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type PublicQuery = Omit<AuditQuery, 'tokenUlid'>;
type Part = Record<Exclude<(typeof publicAuditColumns)[number], 'ulid' | 'created_at' | 'count'>, PartValue>;

const dayMs = 86_400_000;

function part(overrides: Partial<Part>): Part {
  return {
    actor_type: 'sdk_key',
    actor_ulid: 'key_01J00000000000000000000001',
    environment_ulid: 'env_A1',
    environment_key: 'production',
    project_ulid: 'prj_A',
    http_method: 'GET',
    http_path: '/v1/flags',
    action: 'flag.listed',
    subject_type: null,
    subject_ulid: null,
    subject_label: null,
    result: 'success',
    status_code: 200,
    ...overrides,
  };
}

const idOf = (p: Part) => publicAuditPartId(partColumns.map((column) => (p as Record<string, PartValue>)[column] ?? null));

describeEachDatabase('public audit log on parts and requests', (db) => {
  let app: TestApp;
  let store: KnexAuditLogStore;
  /** SQL text of the statements run since the last reset. */
  let statements: string[] = [];
  const base = Date.now() - 10 * dayMs;

  beforeAll(async () => {
    // No retention task of the app's own: the test runs retention itself.
    app = await startTestApp(db, { config: { auditRetentionDays: 0 } });
    store = new KnexAuditLogStore(app.composition.core.dialect);
    app.knex.on('query', (query: { sql: string }) => statements.push(query.sql));
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    await app.knex('public_audit_requests').del();
    await app.knex('public_audit_parts').del();
    statements = [];
  });

  async function insertParts(parts: Part[], lastSeenAt = new Date(base + 1000 * dayMs).toISOString()): Promise<string[]> {
    const rows = parts.map((p) => ({ id: idOf(p), last_seen_at: lastSeenAt, ...p }));
    for (let i = 0; i < rows.length; i += 50) await app.knex('public_audit_parts').insert(rows.slice(i, i + 50));
    return rows.map((r) => r.id);
  }

  /** Request i at base + i seconds, of part `partIds[pick(i)]`; returns the ulids in order. */
  async function insertRequests(n: number, partIds: string[], pick: (i: number) => number, start = base): Promise<string[]> {
    const rows = Array.from({ length: n }, (_, i) => {
      const at = new Date(start + i * 1000);
      return { ulid: auditUlid(at), created_at: at.toISOString(), count: 1 + (i % 3), part_id: partIds[pick(i) % partIds.length] };
    });
    for (let i = 0; i < rows.length; i += 100) await app.knex('public_audit_requests').insert(rows.slice(i, i + 100));
    return rows.map((r) => r.ulid);
  }

  /** The query answered in JS over every stored request joined with its part (what the view public_audit_entries reads). */
  async function reference(query: PublicQuery): Promise<PublicAuditStoredRow[]> {
    const parts = new Map(((await app.knex('public_audit_parts').select()) as Array<Part & { id: string }>).map((p) => [p.id, p] as const));
    const requests = (await app.knex('public_audit_requests').select()) as Array<{
      ulid: string;
      created_at: string;
      count: number;
      part_id: string;
    }>;
    const fake = new FakeAuditLogStore();
    fake.public = requests.map((r) => {
      const p = parts.get(r.part_id)!;
      return {
        ulid: r.ulid,
        created_at: r.created_at,
        actor_type: p.actor_type as string,
        actor_ulid: p.actor_ulid as string | null,
        environment_ulid: p.environment_ulid as string | null,
        environment_key: p.environment_key as string | null,
        project_ulid: p.project_ulid as string | null,
        action: p.action as string,
        subject_type: p.subject_type as string | null,
        subject_ulid: p.subject_ulid as string | null,
        subject_label: p.subject_label as string | null,
        result: p.result as string,
        status_code: Number(p.status_code),
        count: Number(r.count),
      };
    });
    return fake.listPublic(fakeDb, query);
  }

  /** Every page of a list, following the cursor; each page checked against the reference. */
  async function allPages(query: PublicQuery): Promise<PublicAuditStoredRow[]> {
    const out: PublicAuditStoredRow[] = [];
    let after = query.after;
    for (let i = 0; i < 1000; i++) {
      const page = await store.listPublic(app.knex, { ...query, after });
      expect(page, `page after ${after}`).toEqual(await reference({ ...query, after }));
      out.push(...page);
      if (page.length < query.limit) return out;
      after = page[page.length - 1]!.ulid;
    }
    throw new Error('pagination did not end');
  }

  const query = (overrides: Partial<PublicQuery> = {}): PublicQuery => ({
    limit: 7,
    sort: 'created_at_desc',
    visibility: null,
    ...overrides,
  });
  const ordered = (ulids: string[], sort: AuditSort) => (sort === 'created_at_asc' ? [...ulids].sort() : [...ulids].sort().reverse());
  const fromMs = (i: number) => auditUlidLowerBound(base + i * 1000);
  const toMs = (i: number) => auditUlidUpperBound(base + i * 1000);

  it('pages the whole log by primary key either way, rows joined with their parts', async () => {
    const parts = [
      part({}),
      part({ action: 'flag.used', subject_type: 'flag', subject_ulid: 'flg_1', subject_label: 'checkout' }),
      part({ actor_type: 'anonymous', actor_ulid: null, environment_ulid: null, environment_key: null, project_ulid: null }),
      part({ result: 'denied_auth', status_code: 401 }),
      part({ http_path: '/v1/flags/checkout' }),
    ];
    const ids = await insertParts(parts);
    const ulids = await insertRequests(60, ids, (i) => (i * 7) % 5);
    for (const sort of ['created_at_desc', 'created_at_asc'] as const) {
      statements = [];
      const rows = await allPages(query({ sort }));
      expect(rows.map((r) => r.ulid)).toEqual(ordered(ulids, sort));
      // A page: the requests by primary key, then their parts by id; never a scan of the parts.
      expect(statements.some((sql) => /FROM `public_audit_requests` .*ORDER BY/.test(sql))).toBe(true);
      expect(statements.filter((sql) => sql.includes('FROM `public_audit_parts` WHERE `id` IN'))).toHaveLength(Math.ceil(61 / 7));
      expect(statements.some((sql) => /FROM `public_audit_parts` WHERE (?!`id` IN)/.test(sql))).toBe(false);
    }
    const newest = parts[(59 * 7) % 5]!;
    expect(await store.listPublic(app.knex, query({ limit: 1 }))).toEqual([
      {
        ulid: ulids[59],
        created_at: new Date(base + 59_000).toISOString(),
        actor_type: newest.actor_type,
        actor_ulid: newest.actor_ulid,
        environment_ulid: newest.environment_ulid,
        environment_key: newest.environment_key,
        project_ulid: newest.project_ulid,
        action: newest.action,
        subject_type: newest.subject_type,
        subject_ulid: newest.subject_ulid,
        subject_label: newest.subject_label,
        result: newest.result,
        status_code: newest.status_code,
        count: 1 + (59 % 3),
      },
    ]);
    // from/to bound the ulids, inclusive.
    const bounded = await allPages(query({ sort: 'created_at_asc', fromUlid: fromMs(10), toUlid: toMs(29) }));
    expect(bounded.map((r) => r.ulid)).toEqual(ulids.slice(10, 30));
    expect(await store.listPublic(app.knex, query({ fromUlid: fromMs(100) }))).toEqual([]);
  });

  it('merges the ranges of a few matching parts in ulid order, from the cursor, within from/to', async () => {
    const used = [1, 2, 3].map((n) =>
      part({ action: 'flag.used', subject_type: 'flag', subject_ulid: `flg_${n}`, subject_label: `f${n}` }),
    );
    const others = [part({}), part({ action: 'flag.used', result: 'failure', status_code: 500 }), part({ action: 'flag.evaluated' })];
    const ids = await insertParts([...used, ...others]);
    // Requests of all six parts interleaved; those of the three flag.used/success parts in no part order.
    const ulids = await insertRequests(90, ids, (i) => (i * 5 + (i >> 2)) % 6);
    const usedIds = new Set(ids.slice(0, 3));
    const byPart = (await app.knex('public_audit_requests').select('ulid', 'part_id')) as Array<{ ulid: string; part_id: string }>;
    const matching = byPart.filter((r) => usedIds.has(r.part_id)).map((r) => r.ulid);
    expect(new Set(byPart.filter((r) => usedIds.has(r.part_id)).map((r) => r.part_id)).size).toBe(3);

    for (const sort of ['created_at_desc', 'created_at_asc'] as const) {
      statements = [];
      const rows = await allPages(query({ sort, action: 'flag.used', result: 'success', limit: 4 }));
      expect(rows.map((r) => r.ulid)).toEqual(ordered(matching, sort));
      expect(rows.every((r) => r.action === 'flag.used' && r.result === 'success')).toBe(true);
      // One range per matching part and page, no scan of the requests by primary key.
      const ranges = statements.filter((sql) => sql.includes('WHERE `part_id` = ?'));
      expect(ranges.length).toBe(3 * Math.ceil((matching.length + 1) / 4));
      expect(statements.some((sql) => sql.includes('part_id` IN'))).toBe(false);
    }
    const window = query({ sort: 'created_at_asc', subjectType: 'flag', fromUlid: fromMs(20), toUlid: toMs(59), limit: 5 });
    const windowed = await allPages(window);
    expect(windowed.map((r) => r.ulid)).toEqual(matching.filter((u) => u >= ulids[20]! && u <= ulids[59]!).sort());
    expect(windowed.length).toBeGreaterThan(5);
    // One part.
    const one = await allPages(query({ subjectUlid: 'flg_2', sort: 'created_at_asc' }));
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((r) => r.subject_ulid === 'flg_2' && r.subject_label === 'f2')).toBe(true);
    expect(await store.listPublic(app.knex, query({ action: 'no.such.action' }))).toEqual([]);
    expect(await store.listPublic(app.knex, query({ projectUlid: 'prj_none' }))).toEqual([]);
  });

  it(`reads the requests in primary-key order when more than ${PUBLIC_PART_RANGES_MAX} parts match`, async () => {
    const many = Array.from({ length: 40 }, (_, n) =>
      part({ action: 'flag.evaluated', subject_type: 'flag', subject_ulid: `flg_${n}`, subject_label: `f${n}` }),
    );
    const others = [part({}), part({ action: 'flag.evaluated', result: 'not_found', status_code: 404 })];
    const ids = await insertParts([...many, ...others]);
    const ulids = await insertRequests(300, ids, (i) => (i * 13) % 42);
    for (const sort of ['created_at_desc', 'created_at_asc'] as const) {
      statements = [];
      const q = query({ sort, action: 'flag.evaluated', result: 'success', limit: 25 });
      const rows = await allPages(q);
      const expected = await reference({ ...q, limit: 1000 });
      expect(expected.length).toBeGreaterThan(200);
      expect(rows).toEqual(expected);
      expect(statements.some((sql) => sql.includes('WHERE `part_id` = ?'))).toBe(false);
      const inOrder = statements.filter((sql) => /part_id` IN \(/.test(sql));
      expect(inOrder.length).toBe(Math.ceil((expected.length + 1) / 25));
      for (const sql of inOrder) {
        // PostgreSQL has no index hints: its plan is checked below.
        if (db.name !== 'postgres') expect(sql).toContain(db.name === 'sqlite' ? '+`part_id` IN' : 'FORCE INDEX (PRIMARY)');
      }
    }
    // Deep page with from/to: the same rows as the reference.
    const deep = query({ action: 'flag.evaluated', after: ulids[250], fromUlid: fromMs(30), toUlid: toMs(270), limit: 9 });
    const page = await store.listPublic(app.knex, deep);
    expect(page).toHaveLength(9);
    expect(page).toEqual(await reference(deep));
    expect(page.every((r) => r.ulid < ulids[250]!)).toBe(true);

    // The statement reads the requests' primary key in order from the cursor, not the part_id index, and sorts nothing.
    statements = [];
    await store.listPublic(app.knex, deep);
    const sql = statements.find((s) => /part_id` IN \(/.test(s))!;
    const inList = (sql.match(/IN \(([?, ]+)\)/)?.[1] ?? '').split(',').length;
    const partIds = ids.slice(0, 42);
    const values = [...Array.from({ length: inList }, (_, i) => partIds[i % partIds.length]!), fromMs(30), toMs(270), ulids[250]!, 9];
    if (db.name === 'sqlite') {
      const plan = ((await app.knex.raw(`EXPLAIN QUERY PLAN ${sql}`, values)) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join(' | ');
      expect(plan).not.toMatch(/part_id_ulid_index|TEMP B-TREE/);
      expect(plan).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_public_audit_requests_1|USING PRIMARY KEY/);
    } else if (db.name === 'postgres') {
      // Whatever plan the statistics choose, it reads about a page of rows, not every request.
      await app.knex.raw('ANALYZE public_audit_requests, public_audit_parts');
      const nodes = await postgresPlan(app.knex, sql, values, true);
      expect(rowsRead(nodes), JSON.stringify(nodes)).toBeLessThan(300);
    } else {
      const [plan] = (await app.knex.raw(`EXPLAIN ${sql}`, values)) as [Array<{ key: string | null; type: string; Extra: string | null }>];
      expect(plan[0]?.key).toBe('PRIMARY');
      expect(plan[0]?.type).toBe('range');
      expect(plan[0]?.Extra ?? '').not.toMatch(/filesort/);
    }
  });

  it('finds the parts of a flag, and of a project, by an index of the parts rather than by reading every part', async () => {
    await insertParts(
      Array.from({ length: 300 }, (_, n) => part({ project_ulid: `prj_${n % 30}`, subject_type: 'flag', subject_ulid: `flg_${n}` })),
    );
    const cases: Array<[Partial<PublicQuery>, string]> = [
      [{ subjectUlid: 'flg_7' }, 'public_audit_parts_subject_ulid_index'],
      [{ visibility: { projects: ['prj_7'], environments: [] } }, 'public_audit_parts_project_ulid_index'],
    ];
    for (const [filter, index] of cases) {
      statements = [];
      await store.listPublic(app.knex, query({ ...filter, limit: 10 }));
      const sql = statements.find((s) => s.includes('FROM `public_audit_parts` WHERE'))!;
      const values = 'subjectUlid' in filter ? ['flg_7'] : ['prj_7'];
      if (db.name === 'sqlite') {
        const plan = ((await app.knex.raw(`EXPLAIN QUERY PLAN ${sql}`, values)) as Array<{ detail: string }>)
          .map((r) => r.detail)
          .join(' | ');
        expect(plan).toContain(`INDEX ${index}`);
      } else if (db.name === 'postgres') {
        // With so few parts a sequential scan costs less: the check is that an index serves the
        // statement once the table is large (scans made dear, as they are then).
        const nodes = await app.knex.transaction(async (trx) => {
          await trx.raw('SET LOCAL enable_seqscan = off');
          return postgresPlan(trx, sql, values);
        });
        expect(
          nodes.map((node) => node['Index Name']),
          JSON.stringify(nodes),
        ).toContain(index);
      } else {
        const [plan] = (await app.knex.raw(`EXPLAIN ${sql}`, values)) as [Array<{ key: string | null }>];
        expect(plan[0]?.key).toBe(index);
      }
    }
  });

  it('keeps to the projects and environments a restricted caller sees, with few and with many parts', async () => {
    const parts = [
      part({ project_ulid: 'prj_A', environment_ulid: 'env_A1' }),
      part({ project_ulid: 'prj_A', environment_ulid: 'env_A2' }),
      part({ project_ulid: 'prj_A', environment_ulid: null, environment_key: null }),
      part({ project_ulid: 'prj_B', environment_ulid: 'env_B1' }),
      part({ project_ulid: 'prj_C', environment_ulid: 'env_C1' }),
      part({ project_ulid: null, environment_ulid: null, environment_key: null, actor_type: 'anonymous', actor_ulid: null }),
      // Many parts in prj_B, environment env_B1.
      ...Array.from({ length: 36 }, (_, n) => part({ project_ulid: 'prj_B', environment_ulid: 'env_B1', subject_ulid: `flg_${n}` })),
    ];
    const ids = await insertParts(parts);
    await insertRequests(200, ids, (i) => (i * 11) % parts.length);
    const partOf = new Map(
      ((await app.knex('public_audit_requests').select('ulid', 'part_id')) as Array<{ ulid: string; part_id: string }>).map((r) => [
        r.ulid,
        ids.indexOf(r.part_id),
      ]),
    );
    const seen = async (visibility: PublicQuery['visibility'], extra: Partial<PublicQuery> = {}) => {
      const rows = await allPages(query({ visibility, limit: 10, ...extra }));
      return new Set(rows.map((r) => partOf.get(r.ulid)));
    };
    // Few parts: prj_A, environment env_A1 or none.
    expect(await seen({ projects: ['prj_A'], environments: ['env_A1'] })).toEqual(new Set([0, 2]));
    // No environment: only entries of none.
    expect(await seen({ projects: ['prj_A'], environments: [] })).toEqual(new Set([2]));
    // Many parts: prj_A and prj_B (env_A2 and env_B1 visible).
    statements = [];
    const wide = await seen({ projects: ['prj_A', 'prj_B'], environments: ['env_A2', 'env_B1'] });
    expect(wide).toEqual(new Set([1, 2, 3, ...Array.from({ length: 36 }, (_, n) => 6 + n)]));
    expect(statements.some((sql) => /part_id` IN \(/.test(sql))).toBe(true);
    // With a filter as well.
    expect(await seen({ projects: ['prj_A', 'prj_B'], environments: ['env_A2', 'env_B1'] }, { projectUlid: 'prj_A' })).toEqual(
      new Set([1, 2]),
    );
    expect(await store.listPublic(app.knex, query({ visibility: { projects: [], environments: ['env_A1'] } }))).toEqual([]);
    expect(await store.listPublic(app.knex, query({ visibility: { projects: ['prj_C'], environments: [] } }))).toEqual([]);
  });

  it('retention deletes the requests before the cutoff, then only the parts last used before it', async () => {
    const now = app.clock.now().getTime();
    const old = (days: number) => new Date(now - days * dayMs).toISOString();
    const [gone1, gone2, gone3] = await Promise.all([1, 2, 3].map((n) => insertParts([part({ subject_ulid: `old_${n}` })], old(40 + n))));
    const [both] = await insertParts([part({ subject_ulid: 'both' })], old(1));
    const [recent] = await insertParts([part({ subject_ulid: 'recent' })], old(0));
    // Old requests of the old parts and of `both`; recent ones of `both` and `recent`.
    await insertRequests(5, [gone1![0]!, gone2![0]!, gone3![0]!, both!], (i) => i, now - 45 * dayMs);
    const kept = await insertRequests(4, [both!, recent!], (i) => i, now - 2 * dayMs);

    expect(await purgeOldAuditEntries(store, app.knex, app.clock, 0)).toEqual({ management: 0, public: 0 });
    expect(await app.knex('public_audit_requests').count({ n: '*' })).toEqual([{ n: 9 }]);

    const purged = await purgeOldAuditEntries(store, app.knex, app.clock, 30, 2);
    expect(purged.public).toBe(5);
    expect(purged.publicParts).toBe(3);
    const requests = (await app.knex('public_audit_requests').orderBy('ulid').select('ulid')) as Array<{ ulid: string }>;
    expect(requests.map((r) => r.ulid)).toEqual(kept);
    const parts = (await app.knex('public_audit_parts').orderBy('id').select('id')) as Array<{ id: string }>;
    expect(parts.map((p) => p.id)).toEqual([both!, recent!].sort());
    // Every request left still lists with its part.
    expect((await store.listPublic(app.knex, query({ sort: 'created_at_asc' }))).map((r) => r.subject_ulid)).toEqual([
      'both',
      'recent',
      'both',
      'recent',
    ]);
    // Nothing more to delete.
    expect(await purgeOldAuditEntries(store, app.knex, app.clock, 30, 2)).toEqual({ management: 0, public: 0 });
  });
});
