import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../auth/principal.js';
import type { Clock } from '../clock.js';
import { auditUlid } from './audit-ids.js';
import { newId } from '../ids.js';
import { DatabaseLockedError } from '../storage/sqlite-lock-wait.js';
import type { AuditBacklog } from './audit-backlog.js';
import { type AuditValues, auditEntriesPerInsert, insertAuditEntries, insertAuditEntry } from './audit-entry-store.js';

/** What a change changed: its subject before and after (API forms), and the publish comment. */
export interface AuditChanges {
  before?: unknown;
  after?: unknown;
  comment?: string | null;
}

/** What a service knows about the subject of a change. */
export interface AuditSubject {
  action: string;
  subjectType?: string;
  subjectUlid?: string;
  subjectLabel?: string;
  projectUlid?: string;
  environmentUlid?: string;
  /** Changes only; one record feeds the audit log and the webhook events. */
  changes?: AuditChanges;
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
  /** The request that wrote the entry; absent for system actions. */
  request?: AuditRequest;
}

/**
 * One request, shared by every entry it writes (specs/management.yaml, AuditRequest): its id,
 * and the action of its operation, read when an entry is written (the router finds the operation
 * after the trail is made).
 */
export interface AuditRequest {
  ulid: string;
  action: () => string;
}

/** A request of its own, for a trail made outside an HTTP request (the import file, the demo flags). */
export const newAuditRequest = (action = 'unknown'): AuditRequest => ({ ulid: newId('auditRequest'), action: () => action });

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
    readonly request: AuditRequest = newAuditRequest(),
  ) {}

  /** Remembers the subject for the entry written after the response (reads). */
  describe(subject: AuditSubject): void {
    this.subject = { ...this.subject, ...subject };
  }

  /** A trail of the same actor and request, for one more change (written by the service, never by the audit stage). */
  fresh(): AuditTrail {
    return new AuditTrail(this.writer, this.principal, this.httpMethod, this.httpPath, this.request);
  }

  async commit(trx: Knex.Transaction, subject: AuditSubject): Promise<void> {
    this.subject = { ...this.subject, ...subject };
    await this.writer.write(trx, {
      ...this.subject,
      // Each entry records its own change, never one an earlier commit of the request described.
      changes: subject.changes,
      action: subject.action,
      principal: this.principal,
      httpMethod: this.httpMethod,
      httpPath: this.httpPath,
      result: 'success',
      statusCode: 200,
      request: this.request,
    });
    this.written = true;
  }
}

interface PendingBatch {
  rows: AuditValues[];
  done: Promise<void>;
}

/** Called with every recorded change, inside its transaction (the webhook outbox). */
export type ChangeHook = (db: Knex | Knex.Transaction, entry: AuditEntryInput) => Promise<void>;

export class AuditWriter {
  /** Entries waiting for the end of this event-loop turn, per database handle. */
  private readonly pending = new Map<Knex, PendingBatch>();
  private readonly changeHooks: ChangeHook[] = [];

  constructor(
    private readonly clock: Clock,
    /** Where shared entries go while a SQLite write lock is held elsewhere (written later). */
    private readonly backlog?: AuditBacklog,
  ) {}

  /** Registers a hook that sees every change this writer records, in the change's transaction. */
  onChange(hook: ChangeHook): void {
    this.changeHooks.push(hook);
  }

  /**
   * The actor is the account of a personal access token, the management token itself, or
   * `system`; `token` is the credential used. The ulid's time part equals `created_at`
   * (audit-ids.ts), which the audit log's `from`/`to` filters rely on.
   */
  async write(db: Knex | Knex.Transaction, entry: AuditEntryInput): Promise<void> {
    await insertAuditEntry(db, this.values(entry));
    // Only changes are written one by one (reads and refusals go through writeShared).
    for (const hook of this.changeHooks) await hook(db, entry);
  }

  /**
   * Writes the entry of a request that changed nothing (a read, a refusal) together with those of
   * the other requests finishing in the same event-loop turn: one multi-row INSERT, one commit.
   * The promise settles when the shared INSERT did, so the entry is stored before the response
   * goes out, as with `write`; under load one commit serves many requests instead of one each.
   * While another process holds the SQLite write lock the entries go to the backlog instead,
   * written once the lock is free.
   */
  writeShared(knex: Knex, entry: AuditEntryInput): Promise<void> {
    const row = this.values(entry);
    let batch = this.pending.get(knex);
    if (!batch) {
      const rows: AuditValues[] = [];
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.pending.delete(knex);
        return this.insertRows(knex, rows);
      });
      batch = { rows, done };
      this.pending.set(knex, batch);
    }
    batch.rows.push(row);
    return batch.done;
  }

  private async insertRows(knex: Knex, rows: AuditValues[]): Promise<void> {
    for (let i = 0; i < rows.length; i += auditEntriesPerInsert) {
      const chunk = rows.slice(i, i + auditEntriesPerInsert);
      if (!this.backlog) {
        await insertAuditEntries(knex, chunk);
        continue;
      }
      // With a backlog, one try: a SQLite write lock held elsewhere must not hold the answers.
      try {
        await insertAuditEntries(knex, chunk, { lockWaitMs: 0 });
      } catch (error) {
        if (!(error instanceof DatabaseLockedError)) throw error;
        this.backlog.add(knex, chunk);
      }
    }
  }

  private values(entry: AuditEntryInput): AuditValues {
    const principal = entry.principal;
    const actorType = entry.actorType ?? (principal ? (principal.type === 'management_token' ? 'management_token' : 'account') : null);
    const now = this.clock.now();
    const actor =
      actorType === 'system'
        ? { ulid: null, name: 'system', email: null }
        : actorType === 'management_token' && principal
          ? { ulid: principal.tokenUlid, name: principal.tokenName, email: null }
          : { ulid: principal?.account.ulid ?? null, name: principal?.account.name ?? null, email: principal?.account.email ?? null };
    // In the order of managementAuditColumns (audit-columns.ts).
    return [
      auditUlid(now),
      now.toISOString(),
      actorType,
      actor.ulid,
      actor.name,
      actor.email,
      actorType === 'system' ? null : (principal?.tokenUlid ?? null),
      actorType === 'system' ? null : (principal?.tokenName ?? null),
      entry.httpMethod ?? '',
      (entry.httpPath ?? '').slice(0, 2000),
      entry.action,
      entry.subjectType ?? null,
      entry.subjectUlid ?? null,
      entry.subjectLabel?.slice(0, 400) ?? null,
      entry.result,
      entry.statusCode ?? 0,
      entry.projectUlid ?? null,
      entry.environmentUlid ?? null,
      entry.changes === undefined ? null : JSON.stringify(entry.changes),
      entry.request?.ulid ?? null,
      entry.request?.action() ?? null,
    ];
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
