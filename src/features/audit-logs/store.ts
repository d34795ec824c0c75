import type { Knex } from 'knex';
import type { Dialect } from '../../storage/database.js';
import type {
  AuditLogStore,
  AuditQuery,
  ManagementAuditRow,
  PublicAuditStoredRow,
} from './store-types.js';

const tables = { management: 'audit_entries', public: 'public_audit_entries' } as const;

type FilterKey = 'subjectUlid' | 'tokenUlid' | 'actorUlid' | 'action' | 'result' | 'subjectType';

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
    ['project', 'audit_entries_project_ulid_ulid_index'],
    ['result', 'audit_entries_result_ulid_index'],
    ['subjectType', 'audit_entries_subject_type_ulid_index'],
  ],
  public_audit_entries: [
    ['subjectUlid', 'public_audit_entries_subject_ulid_ulid_index'],
    ['actorUlid', 'public_audit_entries_actor_ulid_ulid_index'],
    ['action', 'public_audit_entries_action_ulid_index'],
    ['project', 'public_audit_entries_project_ulid_ulid_index'],
    ['result', 'public_audit_entries_result_ulid_index'],
    ['subjectType', 'public_audit_entries_subject_type_ulid_index'],
  ],
};

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
    const q = this.base('audit_entries', query);
    if (query.tokenUlid !== undefined) q.where('token_ulid', query.tokenUlid);
    return (await q.select(
      'ulid',
      'created_at',
      'actor_type',
      'actor_ulid',
      'actor_name',
      'actor_email',
      'token_ulid',
      'token_name',
      'http_method',
      'http_path',
      'action',
      'subject_type',
      'subject_ulid',
      'subject_label',
      'result',
      'status_code',
      'project_ulid',
      'environment_ulid',
    )) as ManagementAuditRow[];
  }

  async listPublic(query: Omit<AuditQuery, 'tokenUlid'>): Promise<PublicAuditStoredRow[]> {
    return (await this.base('public_audit_entries', { ...query, tokenUlid: undefined }).select(
      'ulid',
      'created_at',
      'actor_type',
      'actor_ulid',
      'environment_ulid',
      'environment_key',
      'project_ulid',
      'action',
      'subject_type',
      'subject_ulid',
      'subject_label',
      'result',
      'status_code',
    )) as PublicAuditStoredRow[];
  }

  private base(table: 'audit_entries' | 'public_audit_entries', query: AuditQuery): Knex.QueryBuilder {
    const index = this.dialect === 'mysql' ? pickIndex(table, query) : undefined;
    // SQLite's planner already uses both parts of these indexes; only MySQL/MariaDB gets the hint.
    const q = index ? this.knex.from(this.knex.raw('?? FORCE INDEX (??)', [table, index])) : this.knex(table);
    const desc = query.sort === 'created_at_desc';
    if (query.action !== undefined) q.where('action', query.action);
    if (query.result !== undefined) q.where('result', query.result);
    if (query.subjectType !== undefined) q.where('subject_type', query.subjectType);
    if (query.subjectUlid !== undefined) q.where('subject_ulid', query.subjectUlid);
    if (query.actorUlid !== undefined) q.where('actor_ulid', query.actorUlid);
    if (query.fromUlid !== undefined) q.where('ulid', '>=', query.fromUlid);
    if (query.toUlid !== undefined) q.where('ulid', '<=', query.toUlid);
    if (query.after !== undefined) q.where('ulid', desc ? '<' : '>', query.after);
    const visibility = query.visibility;
    if (visibility) {
      q.whereIn('project_ulid', visibility.projects);
      q.where((w) => {
        w.whereNull('environment_ulid');
        if (visibility.environments.length > 0) w.orWhereIn('environment_ulid', visibility.environments);
      });
    }
    return q.orderBy('ulid', desc ? 'desc' : 'asc').limit(query.limit);
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
