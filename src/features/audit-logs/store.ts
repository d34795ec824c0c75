import type { Knex } from 'knex';
import { managementAuditColumns, publicAuditListedColumns } from '../../audit/audit-columns.js';
import { selectArrays } from '../../storage/prepared-sql.js';
import type { Dialect } from '../../storage/database.js';
import type { AuditLogStore, AuditQuery, ManagementAuditRow, PublicAuditStoredRow } from './store-types.js';

const tables = { management: 'audit_entries', public: 'public_audit_entries' } as const;

type FilterKey = 'subjectUlid' | 'tokenUlid' | 'actorUlid' | 'action' | 'result' | 'subjectType' | 'projectUlid' | 'environmentUlid';

/**
 * The `(column, ulid)` index of each equality filter, most selective first. MariaDB tends to
 * read such an index by `ref` on the column alone and then walk every row of that value down to
 * the cursor (measured: 30,000 rows for a 25-row page); forcing the index makes it a range on
 * both parts, which starts at the cursor.
 */
const filterIndexes: Record<'audit_entries' | 'public_audit_entries', Array<[FilterKey | 'project', string]>> = {
  audit_entries: [
    ['subjectUlid', 'audit_entries_subject_ulid_ulid_index'],
    ['tokenUlid', 'audit_entries_token_ulid_ulid_index'],
    ['actorUlid', 'audit_entries_actor_ulid_ulid_index'],
    ['action', 'audit_entries_action_ulid_index'],
    ['projectUlid', 'audit_entries_project_ulid_ulid_index'],
    ['project', 'audit_entries_project_ulid_ulid_index'],
    ['result', 'audit_entries_result_ulid_index'],
    ['subjectType', 'audit_entries_subject_type_ulid_index'],
  ],
  public_audit_entries: [
    ['subjectUlid', 'public_audit_entries_subject_ulid_ulid_index'],
    ['actorUlid', 'public_audit_entries_actor_ulid_ulid_index'],
    ['action', 'public_audit_entries_action_ulid_index'],
    ['projectUlid', 'public_audit_entries_project_ulid_ulid_index'],
    ['project', 'public_audit_entries_project_ulid_ulid_index'],
    ['result', 'public_audit_entries_result_ulid_index'],
    ['subjectType', 'public_audit_entries_subject_type_ulid_index'],
  ],
};

// Rows come back as arrays (prepared-sql.ts, selectArrays): one object literal of a fixed shape
// per row is cheaper than the drivers' objects built column by column.
type Cells = unknown[];
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
  };
}

/** A row of `publicAuditListedColumns`. */
function toPublicRow(c: Cells): PublicAuditStoredRow {
  return {
    ulid: str(c[0]),
    created_at: str(c[1]),
    actor_type: str(c[2]),
    actor_ulid: optional(c[3]),
    environment_ulid: optional(c[4]),
    environment_key: optional(c[5]),
    project_ulid: optional(c[6]),
    action: str(c[7]),
    subject_type: optional(c[8]),
    subject_ulid: optional(c[9]),
    subject_label: optional(c[10]),
    result: str(c[11]),
    status_code: Number(c[12]),
    count: Number(c[13]),
  };
}

const selectLists = {
  audit_entries: managementAuditColumns.map((c) => `\`${c}\``).join(', '),
  public_audit_entries: publicAuditListedColumns.map((c) => `\`${c}\``).join(', '),
};

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
 * The page query of an audit list. Built from fixed fragments, values as bindings: the text
 * depends only on which filters are set, so it is prepared once and reused (prepared-sql.ts);
 * a page through Knex's builder cost more CPU than reading the rows.
 */
export function auditListSql(dialect: Dialect, table: 'audit_entries' | 'public_audit_entries', query: AuditQuery): AuditListSql {
  const index = dialect === 'mysql' ? pickIndex(table, query) : undefined;
  // SQLite's planner already uses both parts of these indexes; only MySQL/MariaDB gets the hint.
  const from = index ? `\`${table}\` FORCE INDEX (\`${index}\`)` : `\`${table}\``;
  const desc = query.sort === 'created_at_desc';
  const where: string[] = [];
  const values: Array<string | number> = [];
  for (const [filter, column] of equalityFilters) {
    const value = query[filter];
    if (value === undefined || ((filter === 'tokenUlid' || filter === 'environmentUlid') && table !== 'audit_entries')) continue;
    where.push(`\`${column}\` = ?`);
    values.push(value);
  }
  if (query.kind !== undefined && table === 'audit_entries') where.push(query.kind === 'reads' ? readCondition : `NOT ${readCondition}`);
  if (query.fromUlid !== undefined) {
    where.push('`ulid` >= ?');
    values.push(query.fromUlid);
  }
  if (query.toUlid !== undefined) {
    where.push('`ulid` <= ?');
    values.push(query.toUlid);
  }
  if (query.after !== undefined) {
    where.push(desc ? '`ulid` < ?' : '`ulid` > ?');
    values.push(query.after);
  }
  const visibility = query.visibility;
  if (visibility) {
    where.push(visibility.projects.length === 0 ? '1 = 0' : `\`project_ulid\` IN (${placeholders(visibility.projects.length)})`);
    values.push(...visibility.projects);
    where.push(
      visibility.environments.length === 0
        ? '`environment_ulid` IS NULL'
        : `(\`environment_ulid\` IS NULL OR \`environment_ulid\` IN (${placeholders(visibility.environments.length)}))`,
    );
    values.push(...visibility.environments);
  }
  values.push(query.limit);
  const sql =
    `SELECT ${selectLists[table]} FROM ${from}` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY \`ulid\` ${desc ? 'DESC' : 'ASC'} LIMIT ?`;
  return { sql, values };
}

function placeholders(n: number): string {
  return Array(n).fill('?').join(', ');
}

/**
 * Every filter is an equality, every list is ordered by ulid: with the `(column, ulid)` indexes
 * of migrations 0001 and 0002 the database reads one index range from the cursor on, so a page
 * deep in the log costs what the first page costs. `from`/`to` arrive as ulid bounds (the
 * primary key), not as a second range on created_at.
 */
export class KnexAuditLogStore implements AuditLogStore {
  constructor(
    private readonly knex: Knex,
    private readonly dialect: Dialect,
  ) {}

  async listManagement(query: AuditQuery): Promise<ManagementAuditRow[]> {
    const { sql, values } = auditListSql(this.dialect, 'audit_entries', query);
    return (await selectArrays(this.knex, sql, values)).map(toManagementRow);
  }

  async listPublic(query: Omit<AuditQuery, 'tokenUlid'>): Promise<PublicAuditStoredRow[]> {
    const { sql, values } = auditListSql(this.dialect, 'public_audit_entries', { ...query, tokenUlid: undefined });
    return (await selectArrays(this.knex, sql, values)).map(toPublicRow);
  }

  async findProjectUlid(key: string): Promise<string | undefined> {
    const row = (await this.knex('projects').where('key', key).first('ulid')) as { ulid: string } | undefined;
    return row?.ulid;
  }

  async listProjectsAndEnvironments() {
    const projects = (await this.knex('projects').select('ulid')) as Array<{ ulid: string }>;
    const environments = (await this.knex('environments').select('ulid', 'project_ulid')) as Array<{
      ulid: string;
      project_ulid: string;
    }>;
    return {
      projects: projects.map((p) => p.ulid),
      environments: environments.map((e) => ({ ulid: e.ulid, projectUlid: e.project_ulid })),
    };
  }

  async purge(log: 'management' | 'public', beforeUlid: string, batch: number): Promise<number> {
    const table = tables[log];
    // Select then delete by primary key: portable (SQLite has no DELETE ... LIMIT) and each
    // statement locks only one batch of rows.
    const rows = (await this.knex(table).where('ulid', '<', beforeUlid).orderBy('ulid').limit(batch).select('ulid')) as Array<{
      ulid: string;
    }>;
    if (rows.length === 0) return 0;
    return this.knex(table)
      .whereIn(
        'ulid',
        rows.map((r) => r.ulid),
      )
      .del();
  }
}

/** The index to read for a query: its most selective equality filter's, else the primary key. */
export function pickIndex(table: 'audit_entries' | 'public_audit_entries', query: AuditQuery): string | undefined {
  for (const [filter, index] of filterIndexes[table]) {
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
