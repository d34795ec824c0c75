import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';

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
  httpMethod: string;
  httpPath: string;
  result: string;
  statusCode: number;
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

  async write(db: Knex | Knex.Transaction, entry: AuditEntryInput): Promise<void> {
    const principal = entry.principal;
    const actorType =
      entry.actorType ?? (principal ? (principal.type === 'management_token' ? 'management_token' : 'account') : null);
    await db('audit_entries').insert({
      ulid: newId('auditEntry'),
      created_at: this.clock.now().toISOString(),
      actor_type: actorType,
      actor_ulid: principal?.account.ulid ?? null,
      actor_name: principal?.account.name ?? (actorType === 'system' ? 'system' : null),
      actor_email: principal?.account.email ?? null,
      token_ulid: principal?.tokenUlid ?? null,
      token_name: principal?.tokenName ?? null,
      http_method: entry.httpMethod,
      http_path: entry.httpPath.slice(0, 2000),
      action: entry.action,
      subject_type: entry.subjectType ?? null,
      subject_ulid: entry.subjectUlid ?? null,
      subject_label: entry.subjectLabel?.slice(0, 400) ?? null,
      result: entry.result,
      status_code: entry.statusCode,
      project_ulid: entry.projectUlid ?? null,
      environment_ulid: entry.environmentUlid ?? null,
    });
  }
}
