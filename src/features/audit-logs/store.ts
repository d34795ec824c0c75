import type { Db } from '../../storage/db.js';
import { managementAuditColumns } from '../../audit/audit-columns.js';
import { selectArrays } from '../../storage/prepared-sql.js';
import type { Dialect } from '../../storage/database.js';
import type { AuditLogStore, AuditQuery, ManagementAuditRow, PublicAuditStoredRow } from './store-types.js';

/** Where each log's entries are deleted from: the public log's requests (its parts: purgePublicParts). */
const tables = { management: 'audit_entries', public: 'public_audit_requests' } as const;

type FilterKey = 'subjectUlid' | 'tokenUlid' | 'actorUlid' | 'action' | 'result' | 'subjectType' | 'projectUlid' | 'environmentUlid';

/**
 * The `(column, ulid)` index of each equality filter of audit_entries, most selective first.
 * MariaDB tends to read such an index by `ref` on the column alone and then walk every row of
 * that value down to the cursor (measured: 30,000 rows for a 25-row page); forcing the index
 * makes it a range on both parts, which starts at the cursor.
 */
const filterIndexes: Array<[FilterKey | 'project', string]> = [
  ['subjectUlid', 'audit_entries_subject_ulid_ulid_index'],
  ['tokenUlid', 'audit_entries_token_ulid_ulid_index'],
  ['actorUlid', 'audit_entries_actor_ulid_ulid_index'],
  ['action', 'audit_entries_action_ulid_index'],
  ['projectUlid', 'audit_entries_project_ulid_ulid_index'],
  ['project', 'audit_entries_project_ulid_ulid_index'],
  ['result', 'audit_entries_result_ulid_index'],
  ['subjectType', 'audit_entries_subject_type_ulid_index'],
];

// Rows come back as arrays (prepared-sql.ts, selectArrays): one object literal of a fixed shape
// per row is cheaper than the drivers' objects built column by column.
type Cells = unknown[];
type Bound = string | number;
const str = (cell: unknown) => cell as string;
const optional = (cell: unknown) => (cell ?? null) as string | null;

/** A row of `managementAuditColumns`. */
function toManagementRow(c: Cells): ManagementAuditRow {
  return {
    ulid: str(c[0]),
    created_at: str(c[1]),
    actor_type: optional(c[2]),
    actor_ulid: optional(c[3]),
    actor_name: optional(c[4]),
    actor_email: optional(c[5]),
    token_ulid: optional(c[6]),
    token_name: optional(c[7]),
    http_method: str(c[8]),
    http_path: str(c[9]),
    action: str(c[10]),
    subject_type: optional(c[11]),
    subject_ulid: optional(c[12]),
    subject_label: optional(c[13]),
    result: str(c[14]),
    status_code: Number(c[15]),
    project_ulid: optional(c[16]),
    environment_ulid: optional(c[17]),
    changes: optional(c[18]),
    request_ulid: optional(c[19]),
    request_action: optional(c[20]),
  };
}

const managementSelectList = managementAuditColumns.map((c) => `\`${c}\``).join(', ');

/** Equality filters and their columns, in the order their conditions are written. */
const equalityFilters: Array<[FilterKey, string]> = [
  ['action', 'action'],
  ['result', 'result'],
  ['subjectType', 'subject_type'],
  ['subjectUlid', 'subject_ulid'],
  ['actorUlid', 'actor_ulid'],
  ['tokenUlid', 'token_ulid'],
  ['projectUlid', 'project_ulid'],
  ['environmentUlid', 'environment_ulid'],
];

/**
 * What a read is in the management log: a GET (or HEAD), or one of the operations that are
 * POSTs only to carry a body and change nothing (evaluation with a context, plan). System
 * actions have no method and are changes.
 */
const readCondition = "(COALESCE(`http_method`, '') IN ('GET', 'HEAD') OR `action` IN ('flag.evaluated', 'project.planned'))";

/** One page query: SQL text (the same for every page of a list) and its values. */
export interface AuditListSql {
  sql: string;
  values: Array<string | number>;
}

/**
 * The page query of the management log. Built from fixed fragments, values as bindings: the
 * text depends only on which filters are set, so it is prepared once and reused
 * (prepared-sql.ts); a page through Knex's builder cost more CPU than reading the rows.
 */
export function auditListSql(dialect: Dialect, table: 'audit_entries', query: AuditQuery): AuditListSql {
  const index = dialect === 'mysql' ? pickIndex(query) : undefined;
  // SQLite's planner already uses both parts of these indexes; only MySQL/MariaDB gets the hint.
  const from = index ? `\`${table}\` FORCE INDEX (\`${index}\`)` : `\`${table}\``;
  const where: string[] = [];
  const values: Bound[] = [];
  for (const [filter, column] of equalityFilters) {
    const value = query[filter];
    if (value === undefined) continue;
    where.push(`\`${column}\` = ?`);
    values.push(value);
  }
  if (query.kind !== undefined) where.push(query.kind === 'reads' ? readCondition : `NOT ${readCondition}`);
  ulidBounds(query, where, values);
  visibilityConditions(query, where, values);
  values.push(query.limit);
  const sql =
    `SELECT ${managementSelectList} FROM ${from}` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY \`ulid\` ${query.sort === 'created_at_desc' ? 'DESC' : 'ASC'} LIMIT ?`;
  return { sql, values };
}

/** The from/to bounds and the cursor, as conditions on `ulid`. */
function ulidBounds(query: Omit<AuditQuery, 'tokenUlid'>, where: string[], values: Bound[]): void {
  if (query.fromUlid !== undefined) {
    where.push('`ulid` >= ?');
    values.push(query.fromUlid);
  }
  if (query.toUlid !== undefined) {
    where.push('`ulid` <= ?');
    values.push(query.toUlid);
  }
  if (query.after !== undefined) {
    where.push(query.sort === 'created_at_desc' ? '`ulid` < ?' : '`ulid` > ?');
    values.push(query.after);
  }
}

/** A restricted caller's view: entries of its projects, and of its environments or of none. */
function visibilityConditions(query: Omit<AuditQuery, 'tokenUlid'>, where: string[], values: Bound[]): void {
  const visibility = query.visibility;
  if (!visibility) return;
  where.push(visibility.projects.length === 0 ? '1 = 0' : `\`project_ulid\` IN (${placeholders(visibility.projects.length)})`);
  values.push(...visibility.projects);
  where.push(
    visibility.environments.length === 0
      ? '`environment_ulid` IS NULL'
      : `(\`environment_ulid\` IS NULL OR \`environment_ulid\` IN (${placeholders(visibility.environments.length)}))`,
  );
  values.push(...visibility.environments);
}

function placeholders(n: number): string {
  return Array(n).fill('?').join(', ');
}

// The public log (migration 0020): `public_audit_parts` (what requests share, no secondary
// index) and `public_audit_requests` (ulid, created_at, count, part_id; one index on
// (part_id, ulid)). The per-column (column, ulid) indexes of the wide table are gone, so a
// filter cannot be one index range any more. Instead every filter is on part columns: the
// matching parts are found first (a scan of the parts table, which holds one row per distinct
// key/path/action/subject/outcome, not one per request), then their requests by ulid:
// - no filter: the requests' primary key from the cursor on, then the page's parts by id;
// - few matching parts: per part one range of (part_id, ulid) from the cursor, merged here;
// - many: the requests' primary key in order from the cursor, keeping those of the matching
//   parts (never the part_id index, whose per-part ranges would have to be sorted together).
// Each reads about a page of requests (per part, or of the parts' share of the log), not the log.

/** Up to this many matching parts, a page reads each part's range of (part_id, ulid) and merges. */
export const PUBLIC_PART_RANGES_MAX = 32;
/** Ids bound in one `IN` list (SQLite allows 32,766 variables in a statement); more: one query per chunk, merged. */
const PART_IDS_PER_STATEMENT = 8192;

/** The part columns a listed row shows (the request line is not listed), in the order read. */
const partSelectList =
  '`id`, `actor_type`, `actor_ulid`, `environment_ulid`, `environment_key`, `project_ulid`, ' +
  '`action`, `subject_type`, `subject_ulid`, `subject_label`, `result`, `status_code`';
const requestSelectList = '`ulid`, `created_at`, `count`, `part_id`';

/** The equality filters of the public log: all on part columns (no token, environment or kind there). */
const publicPartFilters = equalityFilters.filter(([filter]) => filter !== 'tokenUlid' && filter !== 'environmentUlid') as Array<
  [Exclude<FilterKey, 'tokenUlid' | 'environmentUlid'>, string]
>;

/** A listed public row from its request's cells (requestSelectList) and its part's (partSelectList). */
function toPublicRow(r: Cells, p: Cells): PublicAuditStoredRow {
  return {
    ulid: str(r[0]),
    created_at: str(r[1]),
    actor_type: str(p[1]),
    actor_ulid: optional(p[2]),
    environment_ulid: optional(p[3]),
    environment_key: optional(p[4]),
    project_ulid: optional(p[5]),
    action: str(p[6]),
    subject_type: optional(p[7]),
    subject_ulid: optional(p[8]),
    subject_label: optional(p[9]),
    result: str(p[10]),
    status_code: Number(p[11]),
    count: Number(r[2]),
  };
}

/**
 * `n` placeholders for an id list, padded to a power of two (at least 8) with the last id
 * repeated: few distinct statement texts, so they stay prepared (the statement cache is keyed by text).
 */
function idList(ids: readonly string[]): { sql: string; values: string[] } {
  let n = 8;
  while (n < ids.length) n *= 2;
  const values = [...ids];
  while (values.length < n) values.push(ids[ids.length - 1]!);
  return { sql: placeholders(n), values };
}

/** Request rows (requestSelectList cells) of several sources, merged in the list's order and cut to `limit`. */
function mergeByUlid(sources: Cells[][], desc: boolean, limit: number): Cells[] {
  const all = sources.length === 1 ? sources[0]! : sources.flat();
  all.sort((a, b) => {
    const x = str(a[0]);
    const y = str(b[0]);
    return x === y ? 0 : x < y !== desc ? -1 : 1;
  });
  return all.length > limit ? all.slice(0, limit) : all;
}

/**
 * Every filter is an equality, every list is ordered by ulid: with the `(column, ulid)` indexes
 * of migrations 0001 and 0002 the database reads one index range of audit_entries from the cursor
 * on, so a page deep in the log costs what the first page costs. `from`/`to` arrive as ulid
 * bounds (the primary key), not as a second range on created_at. The public log: see above.
 */
export class KnexAuditLogStore implements AuditLogStore {
  constructor(private readonly dialect: Dialect) {}

  async listManagement(db: Db, query: AuditQuery): Promise<ManagementAuditRow[]> {
    const { sql, values } = auditListSql(this.dialect, 'audit_entries', query);
    return (await selectArrays(db, sql, values)).map(toManagementRow);
  }

  async listPublic(db: Db, query: Omit<AuditQuery, 'tokenUlid'>): Promise<PublicAuditStoredRow[]> {
    const where: string[] = [];
    const values: Bound[] = [];
    for (const [filter, column] of publicPartFilters) {
      const value = query[filter];
      if (value === undefined) continue;
      where.push(`\`${column}\` = ?`);
      values.push(value);
    }
    visibilityConditions(query, where, values);
    if (where.length === 0) return this.publicPage(db, query);
    const parts = await selectArrays(db, `SELECT ${partSelectList} FROM \`public_audit_parts\` WHERE ${where.join(' AND ')}`, values);
    if (parts.length === 0) return [];
    const byId = new Map(parts.map((p) => [str(p[0]), p]));
    const ids = [...byId.keys()];
    const requests = ids.length <= PUBLIC_PART_RANGES_MAX ? await this.partRanges(db, ids, query) : await this.partsInOrder(db, ids, query);
    return requests.map((r) => toPublicRow(r, byId.get(str(r[3]))!));
  }

  /** No part filter: a page of requests by primary key, then their parts by id. */
  private async publicPage(db: Db, query: Omit<AuditQuery, 'tokenUlid'>): Promise<PublicAuditStoredRow[]> {
    const where: string[] = [];
    const values: Bound[] = [];
    ulidBounds(query, where, values);
    values.push(query.limit);
    const requests = await selectArrays(
      db,
      `SELECT ${requestSelectList} FROM \`public_audit_requests\`` +
        (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
        ` ORDER BY \`ulid\` ${query.sort === 'created_at_desc' ? 'DESC' : 'ASC'} LIMIT ?`,
      values,
    );
    if (requests.length === 0) return [];
    const ids = idList([...new Set(requests.map((r) => str(r[3])))]);
    const parts = await selectArrays(db, `SELECT ${partSelectList} FROM \`public_audit_parts\` WHERE \`id\` IN (${ids.sql})`, ids.values);
    const byId = new Map(parts.map((p) => [str(p[0]), p]));
    const rows: PublicAuditStoredRow[] = [];
    for (const r of requests) {
      // A request whose part is gone is not in the view (an inner join) either; writers store the part first.
      const part = byId.get(str(r[3]));
      if (part) rows.push(toPublicRow(r, part));
    }
    return rows;
  }

  /** Few parts: each part's requests from the cursor on, one range of (part_id, ulid) each, merged. */
  private async partRanges(db: Db, ids: readonly string[], query: Omit<AuditQuery, 'tokenUlid'>): Promise<Cells[]> {
    const desc = query.sort === 'created_at_desc';
    const where = ['`part_id` = ?'];
    const bounds: Bound[] = [];
    ulidBounds(query, where, bounds);
    // MariaDB may read the index by `ref` on part_id alone and walk the part's rows down to the
    // cursor (see filterIndexes); forced, it is a range on both columns.
    const from =
      this.dialect === 'mysql'
        ? '`public_audit_requests` FORCE INDEX (`public_audit_requests_part_id_ulid_index`)'
        : '`public_audit_requests`';
    const sql = `SELECT ${requestSelectList} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY \`ulid\` ${desc ? 'DESC' : 'ASC'} LIMIT ?`;
    const sources: Cells[][] = [];
    // One after the other: a page takes one pooled connection, however many parts it reads.
    for (const id of ids) sources.push(await selectArrays(db, sql, [id, ...bounds, query.limit]));
    return mergeByUlid(sources, desc, query.limit);
  }

  /**
   * Many parts: the requests in primary-key order from the cursor, those of the parts kept, up to
   * the limit. The part_id index must not be read (its ranges would be gathered whole and sorted):
   * SQLite is told so by `+part_id` (no index on an expression), MySQL/MariaDB by FORCE INDEX
   * (PostgreSQL's planner has no hints: it picks by its statistics).
   */
  private async partsInOrder(db: Db, ids: readonly string[], query: Omit<AuditQuery, 'tokenUlid'>): Promise<Cells[]> {
    const desc = query.sort === 'created_at_desc';
    const mysql = this.dialect === 'mysql';
    const from = mysql ? '`public_audit_requests` FORCE INDEX (PRIMARY)' : '`public_audit_requests`';
    const sources: Cells[][] = [];
    for (let i = 0; i < ids.length; i += PART_IDS_PER_STATEMENT) {
      const list = idList(ids.slice(i, i + PART_IDS_PER_STATEMENT));
      const where = [`${this.dialect === 'sqlite' ? '+`part_id`' : '`part_id`'} IN (${list.sql})`];
      const values: Bound[] = [...list.values];
      ulidBounds(query, where, values);
      values.push(query.limit);
      const sql = `SELECT ${requestSelectList} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY \`ulid\` ${desc ? 'DESC' : 'ASC'} LIMIT ?`;
      sources.push(await selectArrays(db, sql, values));
    }
    return mergeByUlid(sources, desc, query.limit);
  }

  async findProjectUlid(db: Db, key: string): Promise<string | undefined> {
    const row = (await db('projects').where('key', key).first('ulid')) as { ulid: string } | undefined;
    return row?.ulid;
  }

  async listProjectsAndEnvironments(db: Db) {
    const projects = (await db('projects').select('ulid')) as Array<{ ulid: string }>;
    const environments = (await db('environments').select('ulid', 'project_ulid')) as Array<{
      ulid: string;
      project_ulid: string;
    }>;
    return {
      projects: projects.map((p) => p.ulid),
      environments: environments.map((e) => ({ ulid: e.ulid, projectUlid: e.project_ulid })),
    };
  }

  async purge(db: Db, log: 'management' | 'public', beforeUlid: string, batch: number): Promise<number> {
    const table = tables[log];
    // Select then delete by primary key: portable (SQLite has no DELETE ... LIMIT) and each
    // statement locks only one batch of rows.
    const rows = (await db(table).where('ulid', '<', beforeUlid).orderBy('ulid').limit(batch).select('ulid')) as Array<{
      ulid: string;
    }>;
    if (rows.length === 0) return 0;
    return db(table)
      .whereIn(
        'ulid',
        rows.map((r) => r.ulid),
      )
      .del();
  }

  async purgePublicParts(db: Db, lastSeenBefore: string, batch: number): Promise<number> {
    const rows = (await db('public_audit_parts')
      .where('last_seen_at', '<', lastSeenBefore)
      .orderBy('id')
      .limit(batch)
      .select('id')) as Array<{ id: string }>;
    if (rows.length === 0) return 0;
    // The condition again: a writer may have used the part since it was selected (its upsert
    // moves last_seen_at to now), and then it stays.
    return db('public_audit_parts')
      .whereIn(
        'id',
        rows.map((r) => r.id),
      )
      .where('last_seen_at', '<', lastSeenBefore)
      .del();
  }
}

/** The index of audit_entries to read for a query: its most selective equality filter's, else the primary key. */
export function pickIndex(query: AuditQuery): string | undefined {
  for (const [filter, index] of filterIndexes) {
    if (filter === 'project') {
      // One project: a range on (project_ulid, ulid). Several: an IN list cannot be read in ulid
      // order, so the primary key (in order, filtering) is cheaper.
      if (query.visibility?.projects.length === 1) return index;
    } else if (query[filter] !== undefined) {
      return index;
    }
  }
  return undefined;
}
