import type { components } from '../../../generated/management.js';
import type { AuditChanges } from '../../audit/audit-trail.js';
import type { ManagementPrincipal, ResourceAccess } from '../../auth/principal.js';
import { auditUlidLowerBound, auditUlidUpperBound } from '../../audit/audit-ids.js';
import { InvalidQueryError, UnprocessableError } from '../../http/errors.js';
import { decodeCursor, encodeCursor } from '../../http/pagination.js';
import type { Db } from '../../storage/db.js';
import type {
  AuditKind,
  AuditLogStore,
  AuditQuery,
  AuditSort,
  AuditVisibility,
  ManagementAuditRow,
  PublicAuditStoredRow,
} from './store-types.js';

/** Query parameters of GET /audit-logs and GET /api-public-audit-logs, already validated by Ajv. */
export interface AuditListParams {
  per_page: number;
  cursor?: string;
  sort?: AuditSort;
  from?: string;
  to?: string;
  action?: string;
  result?: string;
  subject_type?: string;
  subject_ulid?: string;
  management_token_ulid?: string;
  actor_ulid?: string;
  /** A project key. */
  project?: string;
  environment_ulid?: string;
  kind?: AuditKind;
}

export interface AuditListMeta {
  per_page: number;
  sort: AuditSort;
  next_cursor: string | null;
}

type Schemas = components['schemas'];
type Entry = Schemas['AuditEntry'];
type PublicEntry = Schemas['PublicAuditEntry'];
type ActorType = NonNullable<Entry['actor']>['type'];

// The enumerated columns hold what this server wrote from the documents' enums (AuditAction,
// AuditResult, the actor and subject types); the entries say so in their types.
export interface AuditEntry {
  ulid: string;
  actor: { type: ActorType; ulid: string | null; name: string | null; email: string | null } | null;
  token: { ulid: string; name: string } | null;
  http_method: string | null;
  http_path: string | null;
  action: Entry['action'];
  subject_type: Entry['subject_type'];
  subject_ulid: string | null;
  subject_label: string | null;
  result: Entry['result'];
  status_code: number | null;
  created_at: string;
  /** What a change changed (subject before and after, publish comment); null for reads and refusals. */
  changes: AuditChanges | null;
  /** The request that wrote it (shared by the request's entries); null for system actions and older entries. */
  request: { ulid: string; action: Entry['action'] } | null;
}

export interface PublicAuditEntry {
  ulid: string;
  actor_type: PublicEntry['actor_type'];
  actor_ulid: string | null;
  environment: { ulid: string; key: string } | null;
  action: PublicEntry['action'];
  subject_type: PublicEntry['subject_type'];
  subject_ulid: string | null;
  subject_label: string | null;
  result: PublicEntry['result'];
  status_code: number;
  /** Requests the entry stands for (more than 1 in the `aggregate` mode of VEXIL_PUBLIC_AUDIT). */
  count: number;
  created_at: string;
}

export interface AuditPage<T> {
  data: T[];
  meta: AuditListMeta;
}

/** What AuditLogService is built from. */
export interface AuditLogServiceDeps {
  /** The pool: the audit logs are only read here. */
  db: Db;
  store: AuditLogStore;
}

/**
 * Reads the audit logs: filters combined with AND, keyset pagination by ulid in the sort
 * direction, and the caller's grants: a restricted caller sees only entries of projects (and,
 * for environment-level entries, environments) it may reach; entries without a project
 * (authentication failures, token and account administration) only unrestricted callers see.
 */
export class AuditLogService {
  constructor(private readonly deps: AuditLogServiceDeps) {}

  async listManagement(principal: ManagementPrincipal, raw: AuditListParams): Promise<AuditPage<AuditEntry>> {
    const params = withoutEmpty(raw);
    const { query, list } = await this.prepare('audit-logs', principal.access, params);
    const rows = await this.deps.store.listManagement(this.deps.db, {
      ...query,
      tokenUlid: params.management_token_ulid,
      kind: params.kind,
    });
    return this.page(rows, query, list, toAuditEntry);
  }

  async listPublic(principal: ManagementPrincipal, raw: AuditListParams): Promise<AuditPage<PublicAuditEntry>> {
    const params = withoutEmpty(raw);
    const { query, list } = await this.prepare('api-public-audit-logs', principal.access, params);
    // Public requests carry no management token: that filter matches nothing.
    const rows = params.management_token_ulid !== undefined ? [] : await this.deps.store.listPublic(this.deps.db, query);
    return this.page(rows, query, list, toPublicAuditEntry);
  }

  private async prepare(name: string, access: ResourceAccess, params: AuditListParams) {
    const sort: AuditSort = params.sort ?? 'created_at_desc';
    const list = `${name}:${sort}`;
    const from = params.from === undefined ? undefined : parseTime('from', params.from);
    const to = params.to === undefined ? undefined : parseTime('to', params.to);
    if (from !== undefined && to !== undefined && from > to) {
      throw new InvalidQueryError('Invalid query parameter: from must not be after to.').withCode('invalid_combination');
    }
    const cursor = params.cursor ? decodeCursor(params.cursor, list) : undefined;
    if (cursor && cursor.d !== 'n')
      throw new UnprocessableError('Invalid cursor: it is malformed or belongs to another list.').withCode('invalid_cursor');
    const query: AuditQuery = {
      limit: params.per_page + 1,
      sort,
      after: cursor?.u,
      fromUlid: from === undefined ? undefined : auditUlidLowerBound(from),
      toUlid: to === undefined ? undefined : auditUlidUpperBound(to),
      action: params.action,
      result: params.result,
      subjectType: params.subject_type,
      subjectUlid: params.subject_ulid,
      actorUlid: params.actor_ulid,
      projectUlid: await this.projectFilter(access, params.project),
      environmentUlid: params.environment_ulid,
      visibility: await this.visibility(access),
    };
    return { query, list };
  }

  /** The project filter as a ulid; a key the caller cannot see becomes one that matches nothing. */
  private async projectFilter(access: ResourceAccess, key: string | undefined): Promise<string | undefined> {
    if (key === undefined) return undefined;
    const ulid = await this.deps.store.findProjectUlid(this.deps.db, key);
    return ulid !== undefined && access.canSeeProject(ulid) ? ulid : 'prj_none';
  }

  private async visibility(access: ResourceAccess): Promise<AuditVisibility | null> {
    if (!access.restricted) return null;
    const all = await this.deps.store.listProjectsAndEnvironments(this.deps.db);
    const projects = all.projects.filter((ulid) => access.canSeeProject(ulid));
    const visible = new Set(projects);
    const environments = all.environments
      .filter((env) => visible.has(env.projectUlid) && access.canSeeEnvironment(env.projectUlid, env.ulid))
      .map((env) => env.ulid);
    return { projects, environments };
  }

  private page<Row extends { ulid: string }, T>(rows: Row[], query: AuditQuery, list: string, toItem: (row: Row) => T): AuditPage<T> {
    const perPage = query.limit - 1;
    const pageRows = rows.slice(0, perPage);
    const last = pageRows[pageRows.length - 1];
    return {
      data: pageRows.map(toItem),
      meta: {
        per_page: perPage,
        sort: query.sort,
        next_cursor: rows.length > perPage && last ? encodeCursor({ l: list, u: last.ulid, d: 'n' }) : null,
      },
    };
  }
}

/** Empty ulid filters and an empty cursor mean "not given" (management.yaml, listAuditLogs). */
function withoutEmpty(params: AuditListParams): AuditListParams {
  const out = { ...params };
  for (const name of ['cursor', 'subject_ulid', 'management_token_ulid', 'actor_ulid'] as const) {
    if (out[name] === '') delete out[name];
  }
  return out;
}

/**
 * A date-time query parameter (RFC 3339, as the document's `date-time` format accepts it) as
 * epoch milliseconds, sub-millisecond digits kept as a fraction so that inclusive bounds stay exact.
 */
export function parseTime(name: string, value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2})(?::?(\d{2}))?)$/i.exec(value);
  if (!m) throw new InvalidQueryError(`Invalid query parameter: ${name} must be a date-time.`);
  const [, y, mo, d, h, mi, s, frac, zone, sign, oh, om] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), Number(((frac ?? '') + '000').slice(0, 3)));
  let ms = date.getTime();
  // Digits beyond the millisecond only matter as "a little after": half a millisecond says so exactly.
  if (frac && /[1-9]/.test(frac.slice(3))) ms += 0.5;
  if (zone?.toUpperCase() !== 'Z') {
    const offset = (Number(oh) * 60 + Number(om ?? 0)) * 60_000;
    ms -= sign === '-' ? -offset : offset;
  }
  if (!Number.isFinite(ms)) throw new InvalidQueryError(`Invalid query parameter: ${name} must be a date-time.`);
  return ms;
}

export function toAuditEntry(row: ManagementAuditRow): AuditEntry {
  return {
    ulid: row.ulid,
    actor: row.actor_type
      ? { type: row.actor_type as ActorType, ulid: row.actor_ulid, name: row.actor_name, email: row.actor_email }
      : null,
    token: row.token_ulid ? { ulid: row.token_ulid, name: row.token_name ?? '' } : null,
    // System actions are stored with '' and 0 (the columns are NOT NULL) and read back as null.
    http_method: row.http_method === '' ? null : row.http_method,
    http_path: row.http_path === '' ? null : row.http_path,
    action: row.action as Entry['action'],
    subject_type: row.subject_type as Entry['subject_type'],
    subject_ulid: row.subject_ulid,
    subject_label: row.subject_label,
    result: row.result as Entry['result'],
    status_code: Number(row.status_code) === 0 ? null : Number(row.status_code),
    created_at: row.created_at,
    changes: row.changes === null ? null : (JSON.parse(row.changes) as AuditChanges),
    request: row.request_ulid ? { ulid: row.request_ulid, action: (row.request_action ?? 'unknown') as Entry['action'] } : null,
  };
}

export function toPublicAuditEntry(row: PublicAuditStoredRow): PublicAuditEntry {
  return {
    ulid: row.ulid,
    actor_type: row.actor_type as PublicEntry['actor_type'],
    actor_ulid: row.actor_ulid,
    environment: row.environment_ulid ? { ulid: row.environment_ulid, key: row.environment_key ?? '' } : null,
    action: row.action as PublicEntry['action'],
    subject_type: row.subject_type as PublicEntry['subject_type'],
    subject_ulid: row.subject_ulid,
    subject_label: row.subject_label,
    result: row.result as PublicEntry['result'],
    status_code: Number(row.status_code),
    count: Number(row.count),
    created_at: row.created_at,
  };
}
