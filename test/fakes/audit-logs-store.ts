import type { Db } from '../../src/storage/db.js';
import type { AuditLogStore, AuditQuery, ManagementAuditRow, PublicAuditStoredRow } from '../../src/features/audit-logs/store-types.js';

type Filterable = {
  ulid: string;
  action: string;
  result: string;
  subject_type: string | null;
  subject_ulid: string | null;
  actor_ulid: string | null;
  project_ulid: string | null;
  environment_ulid: string | null;
  token_ulid?: string | null;
  http_method?: string;
};

/** What the Knex store counts as a read of the management log (store.ts, readCondition). */
function isRead(row: Filterable): boolean {
  return row.http_method === 'GET' || row.http_method === 'HEAD' || row.action === 'flag.evaluated' || row.action === 'project.planned';
}

/** `management`: the management log, whose rows alone have a token, an environment filter and a kind. */
function matches(row: Filterable, q: AuditQuery, management: boolean): boolean {
  const desc = q.sort === 'created_at_desc';
  if (q.action !== undefined && row.action !== q.action) return false;
  if (q.result !== undefined && row.result !== q.result) return false;
  if (q.subjectType !== undefined && row.subject_type !== q.subjectType) return false;
  if (q.subjectUlid !== undefined && row.subject_ulid !== q.subjectUlid) return false;
  if (q.actorUlid !== undefined && row.actor_ulid !== q.actorUlid) return false;
  if (q.tokenUlid !== undefined && row.token_ulid !== q.tokenUlid) return false;
  if (q.projectUlid !== undefined && row.project_ulid !== q.projectUlid) return false;
  if (management && q.environmentUlid !== undefined && row.environment_ulid !== q.environmentUlid) return false;
  if (management && q.kind !== undefined && isRead(row) !== (q.kind === 'reads')) return false;
  if (q.fromUlid !== undefined && row.ulid < q.fromUlid) return false;
  if (q.toUlid !== undefined && row.ulid > q.toUlid) return false;
  if (q.after !== undefined && (desc ? row.ulid >= q.after : row.ulid <= q.after)) return false;
  if (q.visibility) {
    if (row.project_ulid === null || !q.visibility.projects.includes(row.project_ulid)) return false;
    if (row.environment_ulid !== null && !q.visibility.environments.includes(row.environment_ulid)) return false;
  }
  return true;
}

function select<T extends Filterable>(rows: T[], q: AuditQuery, management: boolean): T[] {
  const sorted = rows.filter((row) => matches(row, q, management)).sort((a, b) => (a.ulid < b.ulid ? -1 : a.ulid > b.ulid ? 1 : 0));
  if (q.sort === 'created_at_desc') sorted.reverse();
  return sorted.slice(0, q.limit);
}

/** In-memory AuditLogStore for the service's unit tests: same contract as the Knex store. */
export class FakeAuditLogStore implements AuditLogStore {
  management: ManagementAuditRow[] = [];
  public: PublicAuditStoredRow[] = [];
  projects: string[] = [];
  environments: Array<{ ulid: string; projectUlid: string }> = [];
  /** Project keys by ulid, for the project filter. */
  projectKeys = new Map<string, string>();

  async findProjectUlid(_db: Db, key: string): Promise<string | undefined> {
    return [...this.projectKeys].find(([, k]) => k === key)?.[0];
  }

  async listManagement(_db: Db, query: AuditQuery): Promise<ManagementAuditRow[]> {
    return select(this.management, query, true);
  }

  async listPublic(_db: Db, query: Omit<AuditQuery, 'tokenUlid'>): Promise<PublicAuditStoredRow[]> {
    return select(this.public, { ...query, tokenUlid: undefined }, false);
  }

  async listProjectsAndEnvironments(_db: Db) {
    return { projects: [...this.projects], environments: [...this.environments] };
  }

  async purge(_db: Db, log: 'management' | 'public', beforeUlid: string, batch: number): Promise<number> {
    const rows: Array<{ ulid: string }> = log === 'management' ? this.management : this.public;
    const doomed = new Set(
      rows
        .filter((r) => r.ulid < beforeUlid)
        .sort((a, b) => (a.ulid < b.ulid ? -1 : 1))
        .slice(0, batch)
        .map((r) => r.ulid),
    );
    if (log === 'management') this.management = this.management.filter((r) => !doomed.has(r.ulid));
    else this.public = this.public.filter((r) => !doomed.has(r.ulid));
    return doomed.size;
  }

  /** The fake holds whole public rows: no parts to delete. */
  async purgePublicParts(_db: Db, _lastSeenBefore: string, _batch: number): Promise<number> {
    return 0;
  }
}
