/**
 * Scenario 7: GET /audit-logs page 1, and the page reached by cursor after 100,000 entries.
 * The entries are seeded straight into the database (Knex batch inserts, older than anything
 * the run writes); the deep cursor is then reached by paging through the API.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Api } from '../lib/api.mjs';
import { batchInsert, openKnex } from '../lib/db.mjs';
import { runSequential } from '../lib/load.mjs';
import { measureHttp } from '../lib/measure.mjs';
import { DIST, NotAvailable, settings } from '../lib/util.mjs';

const ACTIONS = ['flag.read', 'flag.updated', 'target.published', 'project.listed', 'flag.listed'];

/** Audit ulids whose time part is the entry's creation time (src/audit/audit-ids.ts), or a fallback. */
async function auditUlidFactory() {
  try {
    const mod = await import(pathToFileURL(path.join(DIST, 'src', 'audit', 'audit-ids.js')).href);
    if (typeof mod.auditUlid === 'function') return mod.auditUlid;
  } catch {
    // fall through
  }
  const ids = await import(pathToFileURL(path.join(DIST, 'src', 'ids.js')).href);
  return (at) => ids.newId('auditEntry', at.getTime());
}

export async function seedAuditEntries(vexil, count) {
  const auditUlid = await auditUlidFactory();
  const knex = openKnex(vexil.database);
  try {
    const base = Date.now() - 7 * 24 * 3600 * 1000; // a week ago: older than the run's own entries
    const rows = [];
    for (let i = 0; i < count; i++) {
      const at = new Date(base + i * 5);
      rows.push({
        ulid: auditUlid(at),
        created_at: at.toISOString(),
        actor_type: 'account',
        actor_ulid: null,
        actor_name: 'Bench Owner',
        actor_email: 'owner@example.test',
        token_ulid: null,
        token_name: null,
        http_method: 'GET',
        http_path: `/management/v1/projects/bench/flags/flag-${i % 500}`,
        action: ACTIONS[i % ACTIONS.length],
        subject_type: 'flag',
        subject_ulid: null,
        subject_label: `flag-${i % 500}`,
        result: 'success',
        status_code: 200,
        project_ulid: null,
        environment_ulid: null,
      });
    }
    await batchInsert(knex, vexil.database.dialect, 'audit_entries', rows);
  } finally {
    await knex.destroy();
  }
}

/** Pages through GET /audit-logs (per_page 100) until `skip` entries are behind; returns that cursor. */
async function cursorAfter(api, skip) {
  let cursor;
  let seen = 0;
  while (seen < skip) {
    const perPage = Math.min(100, skip - seen);
    const q = new URLSearchParams({ per_page: String(perPage) });
    if (cursor) q.set('cursor', cursor);
    const page = await api.mgmt('GET', `/audit-logs?${q}`);
    seen += page.data.length;
    cursor = page.meta?.next_cursor;
    if (!cursor) throw new NotAvailable(`audit log ended after ${seen} entries (expected more than ${skip})`);
  }
  return cursor;
}

/** Returns { page1, deep, walkSeconds } measurements. */
export async function auditScenario(vexil, log) {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  await api.mgmt('GET', '/audit-logs?per_page=1'); // not built -> NotAvailable
  const skip = settings.auditEntries;
  const t0 = Date.now();
  await seedAuditEntries(vexil, skip + 1000);
  log(`  seeded ${skip + 1000} audit entries in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const t1 = Date.now();
  const cursor = await cursorAfter(api, skip);
  const walkSeconds = (Date.now() - t1) / 1000;
  log(`  paged to entry ${skip} by cursor in ${walkSeconds.toFixed(1)} s`);
  const auth = { authorization: `Bearer ${vexil.ownerToken}` };
  const page1 = await measureHttp({
    vexil,
    api,
    request: { method: 'GET', path: '/management/v1/audit-logs', headers: auth },
    routePattern: '/management/v1/audit-logs',
    log,
  });
  const deep = await measureHttp({
    vexil,
    api,
    request: { method: 'GET', path: `/management/v1/audit-logs?cursor=${encodeURIComponent(cursor)}`, headers: auth },
    routePattern: '/management/v1/audit-logs',
    log,
  });
  // Service time without queueing: one connection, same requests.
  const single = {};
  for (const [name, path] of [
    ['page1', '/management/v1/audit-logs'],
    ['deep', `/management/v1/audit-logs?cursor=${encodeURIComponent(cursor)}`],
  ]) {
    single[name] = await runSequential({
      url: vexil.baseUrl + path,
      headers: auth,
      warmup: 1,
      duration: Math.max(2, Math.round(settings.duration / 2)),
    });
  }
  return { page1, deep, single, walkSeconds, pages: Math.ceil(skip / 100) };
}
