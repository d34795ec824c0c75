import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { auditUlid } from './audit-ids.js';

/** What a service knows about the subject of a change. */
export interface AuditSubject {
  action: string;
  subjectType?: string;
  subjectUlid?: string;
  subjectLabel?: string;
  projectUlid?: string;
  environmentUlid?: string;
}

export interface AuditEntryInput extends AuditSubject {
  principal: ManagementPrincipal | undefined;
  /** `system` for the scheduler. */
  actorType?: 'account' | 'management_token' | 'system';
  /** Null for system actions (stored as '' / 0, read back as null). */
  httpMethod: string | null;
  httpPath: string | null;
  result: string;
  statusCode: number | null;
}

/**
 * One request's audit trail. A service that changes data calls `commit(trx, subject)` inside its
 * transaction, so the change and its entry land or roll back together; for every other request
 * (reads, refusals, failures) the audit stage writes the entry after the response is known.
 */
export class AuditTrail {
  written = false;
  subject: AuditSubject | undefined;

  constructor(
    private readonly writer: AuditWriter,
    /** Set once authentication has run. */
    public principal: ManagementPrincipal | undefined,
    readonly httpMethod: string,
    readonly httpPath: string,
  ) {}

  /** Remembers the subject for the entry written after the response (reads). */
  describe(subject: AuditSubject): void {
    this.subject = { ...this.subject, ...subject };
  }

  async commit(trx: Knex.Transaction, subject: AuditSubject): Promise<void> {
    this.subject = { ...this.subject, ...subject };
    await this.writer.write(trx, {
      ...this.subject,
      action: subject.action,
      principal: this.principal,
      httpMethod: this.httpMethod,
      httpPath: this.httpPath,
      result: 'success',
      statusCode: 200,
    });
    this.written = true;
  }
}

export class AuditWriter {
  constructor(private readonly clock: Clock) {}

  /**
   * The actor is the account of a personal access token, the management token itself, or
   * `system`; `token` is the credential used. The ulid's time part equals `created_at`
   * (audit-ids.ts), which the audit log's `from`/`to` filters rely on.
   */
  async write(db: Knex | Knex.Transaction, entry: AuditEntryInput): Promise<void> {
    const principal = entry.principal;
    const actorType =
      entry.actorType ?? (principal ? (principal.type === 'management_token' ? 'management_token' : 'account') : null);
    const now = this.clock.now();
    const actor =
      actorType === 'system'
        ? { ulid: null, name: 'system', email: null }
        : actorType === 'management_token' && principal
          ? { ulid: principal.tokenUlid, name: principal.tokenName, email: null }
          : { ulid: principal?.account.ulid ?? null, name: principal?.account.name ?? null, email: principal?.account.email ?? null };
    await db('audit_entries').insert({
      ulid: auditUlid(now),
      created_at: now.toISOString(),
      actor_type: actorType,
      actor_ulid: actor.ulid,
      actor_name: actor.name,
      actor_email: actor.email,
      token_ulid: actorType === 'system' ? null : (principal?.tokenUlid ?? null),
      token_name: actorType === 'system' ? null : (principal?.tokenName ?? null),
      http_method: entry.httpMethod ?? '',
      http_path: (entry.httpPath ?? '').slice(0, 2000),
      action: entry.action,
      subject_type: entry.subjectType ?? null,
      subject_ulid: entry.subjectUlid ?? null,
      subject_label: entry.subjectLabel?.slice(0, 400) ?? null,
      result: entry.result,
      status_code: entry.statusCode ?? 0,
      project_ulid: entry.projectUlid ?? null,
      environment_ulid: entry.environmentUlid ?? null,
    });
  }

  /**
   * An action the server took on its own (a scheduled publish, an automatic rollout step):
   * actor `system`, no HTTP request. Call inside the transaction of the change.
   */
  async writeSystem(trx: Knex | Knex.Transaction, subject: AuditSubject, result = 'success'): Promise<void> {
    await this.write(trx, {
      ...subject,
      principal: undefined,
      actorType: 'system',
      httpMethod: null,
      httpPath: null,
      result,
      statusCode: null,
    });
  }
}
