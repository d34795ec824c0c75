import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { readApiKey } from '../auth/public-auth.js';
import type { Clock } from '../clock.js';
import type { BackgroundTask } from '../core.js';
import { HttpError, UnauthorizedError } from '../http/errors.js';
import { operationState } from '../http/operation.js';
import { poller } from '../poller.js';
import { auditResult, denialActions, publicAuditActionByOperation } from './actions.js';
import { auditUlid } from './audit-ids.js';

/** One row of public_audit_entries, as buffered. */
export interface PublicAuditRow {
  ulid: string;
  created_at: string;
  actor_type: 'sdk_key' | 'anonymous';
  actor_ulid: string | null;
  environment_ulid: string | null;
  environment_key: string | null;
  project_ulid: string | null;
  http_method: string;
  http_path: string;
  action: string;
  subject_type: string | null;
  subject_ulid: string | null;
  subject_label: string | null;
  result: string;
  status_code: number;
}

/** What a public handler may say about its subject (defaults come from the path and the key). */
export interface PublicAuditSubject {
  subjectType?: string | null;
  subjectUlid?: string | null;
  subjectLabel?: string | null;
}

export interface PublicAuditBufferOptions {
  /** Entries held at most; beyond that new entries are dropped (and counted in the log). */
  capacity?: number;
  /**
   * Rows per INSERT. Small on purpose: the driver may be synchronous (better-sqlite3), so one
   * INSERT blocks the event loop while it is built and run; requests interleave between batches.
   */
  batchSize?: number;
  /** How often the background task writes what has accumulated. */
  flushIntervalMs?: number;
}

/**
 * Public API audit entries are buffered in memory and written in batches by a background task:
 * an evaluation request never waits for an audit write. The buffer is bounded; when the
 * database cannot keep up, the overflow is dropped and logged rather than growing without end.
 * Stopping the task writes what is left.
 */
export class PublicAuditBuffer {
  private entries: PublicAuditRow[] = [];
  private dropped = 0;
  private flushing: Promise<void> | undefined;
  private readonly capacity: number;
  private readonly batchSize: number;
  readonly task: BackgroundTask;

  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: PublicAuditBufferOptions = {},
  ) {
    this.capacity = options.capacity ?? 50_000;
    this.batchSize = options.batchSize ?? 100;
    const inner = poller('public-audit-flush', options.flushIntervalMs ?? 1000, () => this.flush(), logger);
    this.task = {
      name: inner.name,
      start: () => inner.start(),
      stop: async () => {
        await inner.stop();
        await this.flush().catch((err: unknown) => logger.error({ err }, 'public audit entries could not be written'));
      },
    };
  }

  get size(): number {
    return this.entries.length;
  }

  record(row: Omit<PublicAuditRow, 'ulid' | 'created_at'>): void {
    if (this.entries.length >= this.capacity) {
      this.dropped += 1;
      return;
    }
    const now = this.clock.now();
    this.entries.push({ ulid: auditUlid(now), created_at: now.toISOString(), ...row });
  }

  /** Writes everything buffered so far; concurrent calls share one run. */
  flush(): Promise<void> {
    this.flushing ??= this.writeAll().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeAll(): Promise<void> {
    if (this.dropped > 0) {
      this.logger.warn({ dropped: this.dropped }, 'public audit buffer full: entries dropped');
      this.dropped = 0;
    }
    let first = true;
    while (this.entries.length > 0) {
      // Between batches, let waiting requests run (a synchronous driver blocks while it writes).
      if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
      first = false;
      const batch = this.entries.splice(0, this.batchSize);
      try {
        await this.resolveFlagSubjects(batch);
        await this.knex('public_audit_entries').insert(batch);
      } catch (error) {
        // Keep the batch for the next run (within capacity) and stop this run.
        const room = Math.max(0, this.capacity - this.entries.length);
        this.entries.unshift(...batch.slice(0, room));
        this.dropped += batch.length - Math.min(room, batch.length);
        throw error;
      }
    }
  }

  /** Fills in flag ulids for entries that name a flag by key only, one query per batch. */
  private async resolveFlagSubjects(batch: PublicAuditRow[]): Promise<void> {
    const wanted = batch.filter(
      (row) => row.subject_type === 'flag' && row.subject_ulid === null && row.subject_label && row.project_ulid,
    );
    if (wanted.length === 0) return;
    const projects = [...new Set(wanted.map((row) => row.project_ulid as string))];
    const keys = [...new Set(wanted.map((row) => row.subject_label as string))];
    const flags: Array<{ ulid: string; key: string; project_ulid: string }> = await this.knex('flags')
      .whereIn('project_ulid', projects)
      .whereIn('key', keys)
      .select('ulid', 'key', 'project_ulid');
    const byKey = new Map(flags.map((flag) => [`${flag.project_ulid}/${flag.key}`, flag.ulid]));
    for (const row of wanted) row.subject_ulid = byKey.get(`${row.project_ulid}/${row.subject_label}`) ?? null;
  }
}

const subjectKey = Symbol('publicAuditSubject');

/** Lets a public handler name the subject of its audit entry (for example a flag's ulid). */
export function describePublicAudit(ctx: Koa.Context, subject: PublicAuditSubject): void {
  const state = ctx.state as Record<symbol, PublicAuditSubject | undefined>;
  state[subjectKey] = { ...state[subjectKey], ...subject };
}

/**
 * Wraps every public API request (`/v1/...`, `/ofrep/v1/...`), routed or not, and records its
 * audit entry in the buffer once the outcome is known: refusals (401, 429) included.
 */
export function publicAuditMiddleware(buffer: PublicAuditBuffer): Koa.Middleware {
  return async (ctx, next) => {
    let failure: unknown;
    try {
      await next();
    } catch (error) {
      failure = error;
    }
    const state = operationState(ctx);
    const principal = state.publicPrincipal;
    const status = failure instanceof HttpError ? failure.status : failure ? 500 : ctx.status;
    const operationId = state.operation?.operationId;
    const action =
      failure instanceof UnauthorizedError && !principal
        ? readApiKey(ctx) === undefined
          ? denialActions.missingKey
          : denialActions.invalidKey
        : ((operationId && publicAuditActionByOperation[operationId]) ?? 'unknown');
    const described = (ctx.state as Record<symbol, PublicAuditSubject | undefined>)[subjectKey];
    const flagKey = (ctx.params as Record<string, string> | undefined)?.flagKey ?? (ctx.params as Record<string, string> | undefined)?.key;
    const subject: Required<PublicAuditSubject> = flagKey
      ? { subjectType: 'flag', subjectUlid: null, subjectLabel: flagKey.slice(0, 400) }
      : principal && operationId !== 'getPublicApiDocs'
        ? { subjectType: 'environment', subjectUlid: principal.environmentUlid, subjectLabel: principal.environmentKey }
        : { subjectType: null, subjectUlid: null, subjectLabel: null };
    buffer.record({
      actor_type: principal ? 'sdk_key' : 'anonymous',
      actor_ulid: principal?.keyUlid ?? null,
      environment_ulid: principal?.environmentUlid ?? null,
      environment_key: principal?.environmentKey ?? null,
      project_ulid: principal?.projectUlid ?? null,
      http_method: ctx.method.slice(0, 8),
      http_path: ctx.path.slice(0, 2000),
      action,
      subject_type: described?.subjectType !== undefined ? described.subjectType : subject.subjectType,
      subject_ulid: described?.subjectUlid !== undefined ? described.subjectUlid : subject.subjectUlid,
      subject_label: (described?.subjectLabel !== undefined ? described.subjectLabel : subject.subjectLabel)?.slice(0, 400) ?? null,
      result: auditResult(status, false),
      status_code: status,
    });
    if (failure) throw failure;
  };
}
