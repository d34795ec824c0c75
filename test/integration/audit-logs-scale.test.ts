import type { Knex } from 'knex';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditUlid } from '../../src/audit/audit-ids.js';
import { AuditLogService, type AuditListParams } from '../../src/features/audit-logs/service.js';
import { auditListSql, KnexAuditLogStore } from '../../src/features/audit-logs/store.js';
import type { AuditQuery } from '../../src/features/audit-logs/store-types.js';
import { ResourceAccess } from '../../src/auth/principal.js';
import { describeEachDatabase } from '../support/databases.js';
import { postgresPlan, rowsRead } from '../support/postgres-plans.js';
import { principal } from '../unit/admin/principals.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A page deep in a long audit log costs what the first page costs: keyset pagination on ulid
 * plus a `(filter, ulid)` index per filter. Measured on MariaDB by the rows the storage engine
 * reads (Handler_read_* counters), on SQLite by the query plan (an index range, no sort).
 */
const total = 30_000;
const perPage = 25;
const actions = ['flag.read', 'flag.updated', 'target.published', 'scope.denied', 'project.listed'];

describeEachDatabase('audit log page cost', (db) => {
  let app: TestApp;
  let ulids: string[] = [];
  const base = Date.parse('2025-01-01T00:00:00.000Z');

  beforeAll(async () => {
    app = await startTestApp(db);
    const rows: Array<Record<string, unknown> & { ulid: string }> = [];
    for (let i = 0; i < total; i++) {
      const at = new Date(base + i * 10);
      rows.push({
        ulid: auditUlid(at),
        created_at: at.toISOString(),
        actor_type: 'account',
        actor_ulid: `usr_${i % 7}`,
        token_ulid: `tok_${i % 7}`,
        http_method: 'GET',
        http_path: '/management/v1/projects',
        action: actions[i % actions.length],
        subject_type: 'flag',
        subject_ulid: `flg_${i % 100}`,
        result: i % 10 === 0 ? 'not_found' : 'success',
        status_code: i % 10 === 0 ? 404 : 200,
        project_ulid: `prj_${i % 3}`,
      });
    }
    ulids = rows.map((r) => r.ulid);
    // SQLite caps the terms of one statement; MariaDB takes large multi-row inserts.
    const batch = db.name === 'sqlite' ? 200 : 2500;
    await app.knex.transaction(async (trx) => {
      for (let i = 0; i < rows.length; i += batch) await trx('audit_entries').insert(rows.slice(i, i + batch));
    });
    // PostgreSQL plans by the table's statistics, which autovacuum gathers shortly after a bulk
    // load like this one: gathered at once here.
    if (db.name === 'postgres') await app.knex.raw('ANALYZE audit_entries');
  }, 180_000);

  afterAll(async () => {
    await app?.close();
  });

  /** Runs one page query and returns the storage engine's row reads (MariaDB) or plan (SQLite). */
  async function measure(params: Partial<AuditListParams>, access = ResourceAccess.unrestricted()) {
    return app.knex.transaction(async (trx) => {
      const dialect = app.composition.core.dialect;
      const store = new KnexAuditLogStore(dialect);
      // The query the store runs, as it builds it (it runs prepared SQL, not through Knex's builder).
      const queries: AuditQuery[] = [];
      const listManagement = store.listManagement.bind(store);
      store.listManagement = async (on, query) => {
        queries.push(query);
        return listManagement(on, query);
      };
      const service = new AuditLogService({ db: trx, store });
      const before = db.name === 'mariadb' ? await handlerReads(trx) : 0;
      const page = await service.listManagement(principal({ access }), { per_page: perPage, ...params });
      let reads = db.name === 'mariadb' ? (await handlerReads(trx)) - before : 0;
      const query = auditListSql(dialect, 'audit_entries', queries[queries.length - 1] as AuditQuery);
      // PostgreSQL: the rows the statement's scans read, counted by running it under EXPLAIN ANALYZE.
      if (db.name === 'postgres') reads = rowsRead(await postgresPlan(trx, query.sql, query.values, true));
      const plan =
        db.name === 'sqlite'
          ? ((await trx.raw(`EXPLAIN QUERY PLAN ${query.sql}`, query.values)) as Array<{ detail: string }>).map((r) => r.detail).join(' | ')
          : '';
      return { page, reads, plan };
    });
  }

  async function handlerReads(trx: Knex.Transaction): Promise<number> {
    const [rows] = (await trx.raw("SHOW SESSION STATUS LIKE 'Handler_read%'")) as [Array<{ Variable_name: string; Value: string }>];
    return rows.reduce((sum, r) => sum + Number(r.Value), 0);
  }

  function cursorAt(index: number, sort: 'created_at_desc' | 'created_at_asc'): string {
    return Buffer.from(JSON.stringify({ l: `audit-logs:${sort}`, u: ulids[index], d: 'n' })).toString('base64url');
  }

  function expectCheap(result: { reads: number; plan: string }, label: string) {
    if (db.name === 'mariadb') {
      // One index range from the cursor on: about per_page rows (plus filter misses), never the log.
      expect(result.reads, label).toBeLessThan(perPage * 10);
    } else if (db.name === 'postgres') {
      // PostgreSQL picks by its statistics (no hints): for a filter one row in ten matches, the
      // primary key read from the cursor, filtered (about ten rows per row of the page); never the log.
      expect(result.reads, label).toBeLessThan(perPage * 20);
    } else {
      expect(result.plan, label).not.toMatch(/TEMP B-TREE/);
      expect(result.plan, label).toMatch(/USING (COVERING )?INDEX|USING PRIMARY KEY/);
    }
  }

  it('reads about one page of rows for the first page and for a page deep in the log', async () => {
    const first = await measure({ sort: 'created_at_desc' });
    expect(first.page.data.length).toBe(perPage);
    expect(first.page.data[0]?.ulid).toBe(ulids[total - 1]);
    expectCheap(first, 'first page');

    const deep = await measure({ sort: 'created_at_desc', cursor: cursorAt(5_000, 'created_at_desc') });
    expect(deep.page.data[0]?.ulid).toBe(ulids[4_999]);
    expectCheap(deep, 'deep page, descending');

    const deepAsc = await measure({ sort: 'created_at_asc', cursor: cursorAt(28_500, 'created_at_asc') });
    expect(deepAsc.page.data[0]?.ulid).toBe(ulids[28_501]);
    expectCheap(deepAsc, 'deep page, ascending');
  });

  it('stays cheap deep in the log with each filter and with a time range', async () => {
    const deep = cursorAt(3_000, 'created_at_desc');
    for (const filter of [
      { action: 'target.published' },
      { result: 'not_found' },
      { subject_type: 'flag' },
      { subject_ulid: 'flg_42' },
      { management_token_ulid: 'tok_3' },
      { actor_ulid: 'usr_5' },
      { from: new Date(base + 1000 * 10).toISOString(), to: new Date(base + 30_000 * 10).toISOString() },
    ] as Array<Partial<AuditListParams>>) {
      const result = await measure({ sort: 'created_at_desc', cursor: deep, ...filter });
      expect(result.page.data.length, JSON.stringify(filter)).toBe(perPage);
      expectCheap(result, JSON.stringify(filter));
    }
  });

  it('stays cheap for a caller restricted to one project', async () => {
    const access = new ResourceAccess(null, { projects: new Set(['prj_1']), environments: new Map() });
    // The projects of the synthetic entries do not exist as rows: restrict through a stub view.
    const result = await app.knex.transaction(async (trx) => {
      const store = new KnexAuditLogStore(app.composition.core.dialect);
      store.listProjectsAndEnvironments = async () => ({ projects: ['prj_0', 'prj_1', 'prj_2'], environments: [] });
      const before = db.name === 'mariadb' ? await handlerReads(trx) : 0;
      const page = await new AuditLogService({ db: trx, store }).listManagement(principal({ access }), {
        per_page: perPage,
        cursor: cursorAt(15_000, 'created_at_desc'),
      });
      return { page, reads: db.name === 'mariadb' ? (await handlerReads(trx)) - before : 0 };
    });
    expect(result.page.data.length).toBe(perPage);
    if (db.name === 'mariadb') expect(result.reads).toBeLessThan(perPage * 10);
  });
});
