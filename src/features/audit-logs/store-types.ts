import type { Db } from '../../storage/db.js';
/** Storage of the two audit logs (table audit_entries; tables public_audit_requests and public_audit_parts). */

export type AuditSort = 'created_at_desc' | 'created_at_asc';

/** Which projects and environments a restricted caller may see; null = everything. */
export interface AuditVisibility {
  projects: string[];
  environments: string[];
}

export interface AuditQuery {
  /** Rows to return (the service asks for one more than a page to know if another follows). */
  limit: number;
  sort: AuditSort;
  /** Keyset: only entries strictly after this ulid in sort order. */
  after?: string;
  /** Inclusive ulid bounds derived from `from` / `to` (audit ulids carry their creation time). */
  fromUlid?: string;
  toUlid?: string;
  action?: string;
  result?: string;
  subjectType?: string;
  subjectUlid?: string;
  tokenUlid?: string;
  actorUlid?: string;
  projectUlid?: string;
  environmentUlid?: string;
  /** Only changes (and system actions) or only reads; absent: both. Management log only. */
  kind?: AuditKind;
  visibility: AuditVisibility | null;
}

export type AuditKind = 'changes' | 'reads';

export interface ManagementAuditRow {
  ulid: string;
  created_at: string;
  actor_type: string | null;
  actor_ulid: string | null;
  actor_name: string | null;
  actor_email: string | null;
  token_ulid: string | null;
  token_name: string | null;
  http_method: string;
  http_path: string;
  action: string;
  subject_type: string | null;
  subject_ulid: string | null;
  subject_label: string | null;
  result: string;
  status_code: number;
  project_ulid: string | null;
  environment_ulid: string | null;
  /** JSON of AuditChanges, or null. */
  changes: string | null;
  /** Null for system actions and entries written before migration 0021. */
  request_ulid: string | null;
  request_action: string | null;
}

export interface PublicAuditStoredRow {
  ulid: string;
  created_at: string;
  actor_type: string;
  actor_ulid: string | null;
  environment_ulid: string | null;
  environment_key: string | null;
  project_ulid: string | null;
  action: string;
  subject_type: string | null;
  subject_ulid: string | null;
  subject_label: string | null;
  result: string;
  status_code: number;
  count: number;
}

export interface AuditLogStore {
  listManagement(db: Db, query: AuditQuery): Promise<ManagementAuditRow[]>;
  /** `tokenUlid` never matches a public entry; the service answers such queries itself. */
  listPublic(db: Db, query: Omit<AuditQuery, 'tokenUlid'>): Promise<PublicAuditStoredRow[]>;
  /** The ulid of the project with this key, if any. */
  findProjectUlid(db: Db, key: string): Promise<string | undefined>;
  /** Every project (ulid) and environment (ulid, project ulid), to resolve a restricted caller's view. */
  listProjectsAndEnvironments(db: Db): Promise<{ projects: string[]; environments: Array<{ ulid: string; projectUlid: string }> }>;
  /** Deletes entries with a ulid below `beforeUlid`, at most `batch` per statement; returns how many. */
  purge(db: Db, log: 'management' | 'public', beforeUlid: string, batch: number): Promise<number>;
  /**
   * Deletes parts of the public log last used before `lastSeenBefore` (ISO time), at most `batch`
   * per statement; returns how many. Run after the requests before that time are purged: a writer
   * stores a part (last_seen_at = its now) before the requests that use it, so such a part has no
   * request left.
   */
  purgePublicParts(db: Db, lastSeenBefore: string, batch: number): Promise<number>;
}
