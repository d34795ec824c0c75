import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { readApiKey } from '../auth/public-auth.js';
import type { PublicPrincipal } from '../auth/principal.js';
import { isoOf, type Clock } from '../clock.js';
import type { BackgroundTask } from '../core.js';
import { DomainError, UnauthorizedError } from '../http/errors.js';
import { statusOf } from '../http/error-middleware.js';
import { operationState } from '../http/operation.js';
import { poller } from '../poller.js';
import { auditResult, denialActions, publicAuditActionByOperation } from './actions.js';
import { publicAuditColumns } from './audit-columns.js';
import { auditUlid } from './audit-ids.js';
import { append, appendBlocksServingThread, insertText } from '../storage/prepared-sql.js';
import { defaultPublicAuditMode, type PublicAuditMode } from './public-audit-mode.js';

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

function rowValues(row: BufferedRow): Array<string | number | null> {
  return [
    row.ulid,
    row.created_at,
    row.actor_type,
    row.actor_ulid,
    row.environment_ulid,
    row.environment_key,
    row.project_ulid,
    row.http_method,
    row.http_path,
    row.action,
    row.subject_type,
    row.subject_ulid,
    row.subject_label,
    row.result,
    row.status_code,
    row.count,
  ];
}

/** Marks a buffered row whose flag the handler did not name: its ulid is looked up by key. */
const flagByKey = Symbol('flagByKey');
/** `count`: requests the row stands for (1, or the minute's count in the `aggregate` mode). */
type BufferedRow = PublicAuditRow & { count: number; [flagByKey]?: true };

/** What a public handler may say about its subject (defaults come from the path and the key). */
export interface PublicAuditSubject {
  subjectType?: string | null;
  subjectUlid?: string | null;
  subjectLabel?: string | null;
}

/** Rows per INSERT the serving thread runs itself, and the most per INSERT handed over (SQLite's worker thread, MySQL). */
const SERVING_THREAD_BATCH = 100;
const HANDED_OVER_BATCH = 1024;

export interface PublicAuditBufferOptions {
  /** What is recorded (VEXIL_PUBLIC_AUDIT): every request unless told otherwise. */
  mode?: PublicAuditMode;
  /** Entries held at most; beyond that new entries are dropped (counted, the overflow logged once). */
  capacity?: number;
  /**
   * Rows per INSERT. Default: 100 where the INSERT runs on the serving thread (a synchronous
   * driver blocks the event loop while it runs; requests interleave between batches), up to
   * 1,024 where SQLite's worker thread or MySQL/MariaDB runs it (batchLength).
   */
  batchSize?: number;
  /** How often the background task writes what has accumulated. */
  flushIntervalMs?: number;
}

/**
 * Public API audit entries are buffered in memory and written in batches by a background task:
 * an evaluation request never waits for an audit write. The buffer is bounded; when the
 * database cannot keep up, the overflow is dropped (counted, and logged once per overflow) rather
 * than growing without end. Stopping the task writes what is left. The mode decides which
 * requests get an entry, and `aggregate` folds a minute's requests of one key and subject into one.
 */
export class PublicAuditBuffer {
  /** Buffered rows; those before `head` are written already (dropped from the array in bulk). */
  private entries: BufferedRow[] = [];
  private head = 0;
  private dropped = 0;
  /** Since the first entry dropped in this overflow (logged once), until the buffer drains. */
  private overflowing = false;
  /** `sample`: the fraction of a successful request owed so far; one is recorded when it reaches 1. */
  private sampleCredit = 0;
  /** `aggregate`: the open minute's entries by group, moved into `entries` once the minute is over. */
  private groups = new Map<string, BufferedRow>();
  private groupsMinute = -1;
  private readonly mode: PublicAuditMode;
  /** Since start, for /metrics: rows written and entries refused because the buffer was full. */
  writtenTotal = 0;
  droppedTotal = 0;
  private flushing: Promise<void> | undefined;
  private readonly capacity: number;
  private readonly batchSize: number | undefined;
  readonly task: BackgroundTask;

  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: PublicAuditBufferOptions = {},
  ) {
    this.mode = options.mode ?? defaultPublicAuditMode;
    this.capacity = options.capacity ?? 50_000;
    this.batchSize = options.batchSize;
    const inner = poller('public-audit-flush', options.flushIntervalMs ?? 1000, () => this.flush(), logger);
    this.task = {
      name: inner.name,
      start: () => inner.start(),
      stop: async () => {
        await inner.stop();
        this.sealGroups();
        await this.flush().catch((err: unknown) => logger.error({ err }, 'public audit entries could not be written'));
      },
    };
  }

  /** Entries held: waiting to be written, and (aggregate) the open minute's groups. */
  get size(): number {
    return this.entries.length - this.head + this.groups.size;
  }

  /**
   * Takes one request's entry, as the mode says. A flag subject without a ulid is looked up by
   * key when written, unless `subjectNamed` says the handler named the subject itself (a null
   * ulid then means "no such flag").
   */
  record(row: Omit<PublicAuditRow, 'ulid' | 'created_at'>, subjectNamed = false): void {
    const mode = this.mode;
    if (mode.kind !== 'every' && row.status_code < 400) {
      if (mode.kind === 'errors') return;
      if (mode.kind === 'sample') {
        // Evenly spaced rather than random: exactly `rate` of the requests, never a burst of misses.
        this.sampleCredit += mode.rate;
        if (this.sampleCredit < 1 - 1e-9) return;
        this.sampleCredit -= 1;
      }
    }
    const now = this.clock.now();
    if (mode.kind === 'aggregate') {
      this.aggregate(row, now, subjectNamed);
      return;
    }
    if (this.size >= this.capacity) {
      this.drop();
      return;
    }
    this.entries.push(this.entryOf(row, now, subjectNamed));
    // A full statement's worth is handed over at once rather than at the next tick of the task:
    // the database (or SQLite's worker thread) inserts steadily instead of a second's rows in one
    // burst that takes a core from the answers. A failure is left to the task, which retries and
    // logs it.
    if (this.entries.length - this.head >= HANDED_OVER_BATCH && this.flushing === undefined && !appendBlocksServingThread(this.knex)) {
      this.flush().catch(() => undefined);
    }
  }

  /** One entry per key, environment, action, subject, status and method in each minute, counted. */
  private aggregate(row: Omit<PublicAuditRow, 'ulid' | 'created_at'>, now: Date, subjectNamed: boolean): void {
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute !== this.groupsMinute) {
      this.sealGroups();
      this.groupsMinute = minute;
    }
    const group = `${row.actor_ulid}\u0000${row.environment_ulid}\u0000${row.action}\u0000${row.status_code}\u0000${row.http_method}\u0000${row.subject_type}\u0000${row.subject_ulid}\u0000${row.subject_label}`;
    const held = this.groups.get(group);
    if (held) {
      held.count += 1;
      return;
    }
    if (this.size >= this.capacity) {
      this.drop();
      return;
    }
    this.groups.set(group, this.entryOf(row, now, subjectNamed));
  }

  /** Moves the open minute's groups to the entries to write (the minute is over, or the task stops). */
  private sealGroups(): void {
    if (this.groups.size === 0) return;
    for (const entry of this.groups.values()) this.entries.push(entry);
    this.groups = new Map();
  }

  private drop(): void {
    this.dropped += 1;
    this.droppedTotal += 1;
    if (this.overflowing) return;
    this.overflowing = true;
    this.logger.warn(
      { capacity: this.capacity },
      'public audit buffer full: entries are dropped until the database catches up (counted in vexil_buffer_rows_dropped_total)',
    );
  }

  private entryOf(row: Omit<PublicAuditRow, 'ulid' | 'created_at'>, now: Date, subjectNamed: boolean): BufferedRow {
    // Spelled out rather than spread: one object shape, built once per public request.
    const entry: BufferedRow = {
      ulid: auditUlid(now),
      created_at: isoOf(now),
      actor_type: row.actor_type,
      actor_ulid: row.actor_ulid,
      environment_ulid: row.environment_ulid,
      environment_key: row.environment_key,
      project_ulid: row.project_ulid,
      http_method: row.http_method,
      http_path: row.http_path,
      action: row.action,
      subject_type: row.subject_type,
      subject_ulid: row.subject_ulid,
      subject_label: row.subject_label,
      result: row.result,
      status_code: row.status_code,
      count: 1,
    };
    if (!subjectNamed && row.subject_type === 'flag' && row.subject_ulid === null && row.subject_label && row.project_ulid) {
      entry[flagByKey] = true;
    }
    return entry;
  }

  /** Writes everything buffered so far; concurrent calls share one run. */
  flush(): Promise<void> {
    this.flushing ??= this.writeAll().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeAll(): Promise<void> {
    // A finished minute's groups are complete: write them.
    if (this.groups.size > 0 && Math.floor(this.clock.now().getTime() / 60_000) !== this.groupsMinute) this.sealGroups();
    let first = true;
    while (this.entries.length > this.head) {
      // Between batches, let waiting requests run (a synchronous driver blocks while it writes).
      if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
      first = false;
      // A failed batch stays where it is (head does not move) for the next run; this run stops.
      const batch = this.entries.slice(this.head, this.head + this.batchLength(this.entries.length - this.head));
      await this.resolveFlagSubjects(batch);
      // One multi-row INSERT per batch, its text cached per row count and (SQLite) prepared
      // once: no query building per batch. One statement is atomic, so a failed batch can be
      // retried whole without duplicates.
      await append(this.knex, insertText('public_audit_entries', publicAuditColumns, batch.length), batch.flatMap(rowValues));
      this.head += batch.length;
      this.writtenTotal += batch.length;
      // Drop written rows in bulk: shifting the array per batch made a long flush quadratic.
      if (this.head === this.entries.length || this.head >= 4096) {
        this.entries = this.entries.slice(this.head);
        this.head = 0;
      }
    }
    if (this.overflowing) {
      this.logger.info({ dropped: this.dropped }, 'public audit buffer has room again');
      this.overflowing = false;
      this.dropped = 0;
    }
  }

  /**
   * Rows in the next INSERT out of `waiting`. Large statements cost SQLite's worker thread fewer
   * index pages rewritten per row (about 7 µs of its CPU a row in batches of 1,024 against 11 in
   * batches of 100, measured on this table) and MariaDB fewer commits (with 100 a statement it
   * held about 15,500 rows a second while the server answered 21,000 requests a second, and the
   * buffer overflowed); a power of two, so that at most eleven statement texts are ever prepared.
   */
  private batchLength(waiting: number): number {
    if (this.batchSize !== undefined) return this.batchSize;
    if (appendBlocksServingThread(this.knex)) return SERVING_THREAD_BATCH;
    let length = HANDED_OVER_BATCH;
    while (length > waiting) length >>= 1;
    return length;
  }

  /**
   * Fills in flag ulids for entries that name a flag by key only, one query per batch. Handlers
   * that know the flag name it (describePublicAudit), which spares the query.
   */
  private async resolveFlagSubjects(batch: BufferedRow[]): Promise<void> {
    const wanted = batch.filter((row) => row[flagByKey]);
    if (wanted.length === 0) return;
    const projects = [...new Set(wanted.map((row) => row.project_ulid as string))];
    const keys = [...new Set(wanted.map((row) => row.subject_label as string))];
    const flags: Array<{ ulid: string; key: string; project_ulid: string }> = await this.knex('flags')
      .whereIn('project_ulid', projects)
      .whereIn('key', keys)
      .select('ulid', 'key', 'project_ulid');
    const byKey = new Map(flags.map((flag) => [`${flag.project_ulid}/${flag.key}`, flag.ulid]));
    for (const row of wanted) {
      row.subject_ulid = byKey.get(`${row.project_ulid}/${row.subject_label}`) ?? null;
      row[flagByKey] = undefined;
    }
  }
}

const subjectKey = Symbol('publicAuditSubject');

/** Lets a public handler name the subject of its audit entry (for example a flag's ulid). */
export function describePublicAudit(ctx: Koa.Context, subject: PublicAuditSubject): void {
  const state = ctx.state as Record<symbol, PublicAuditSubject | undefined>;
  state[subjectKey] = { ...state[subjectKey], ...subject };
}

/** What one public request's audit entry is made of, however it was answered. */
export interface PublicRequestOutcome {
  principal: PublicPrincipal | undefined;
  operationId: string | undefined;
  status: number;
  /** A 401 for a request without a resolved key: which denial it was depends on the key sent. */
  keyRefused: boolean;
  keySent: boolean;
  method: string;
  path: string;
  /** The flag key of the path, if the operation has one. */
  flagKey: string | undefined;
  /** What the handler said about the subject (describePublicAudit). */
  described: PublicAuditSubject | undefined;
}

/** Buffers a public request's audit entry (the Koa middleware below, and the fast public reads). */
export function recordPublicRequest(buffer: PublicAuditBuffer, o: PublicRequestOutcome): void {
  const { principal, operationId, described } = o;
  const action = o.keyRefused
    ? o.keySent
      ? denialActions.invalidKey
      : denialActions.missingKey
    : ((operationId && publicAuditActionByOperation[operationId]) ?? 'unknown');
  const subject: Required<PublicAuditSubject> = o.flagKey
    ? { subjectType: 'flag', subjectUlid: null, subjectLabel: o.flagKey.slice(0, 400) }
    : principal && operationId !== 'getPublicApiDocs'
      ? { subjectType: 'environment', subjectUlid: principal.environmentUlid, subjectLabel: principal.environmentKey }
      : { subjectType: null, subjectUlid: null, subjectLabel: null };
  buffer.record(
    {
      actor_type: principal ? 'sdk_key' : 'anonymous',
      actor_ulid: principal?.keyUlid ?? null,
      environment_ulid: principal?.environmentUlid ?? null,
      environment_key: principal?.environmentKey ?? null,
      project_ulid: principal?.projectUlid ?? null,
      http_method: o.method.slice(0, 8),
      http_path: o.path.slice(0, 2000),
      action,
      subject_type: described?.subjectType !== undefined ? described.subjectType : subject.subjectType,
      subject_ulid: described?.subjectUlid !== undefined ? described.subjectUlid : subject.subjectUlid,
      subject_label: (described?.subjectLabel !== undefined ? described.subjectLabel : subject.subjectLabel)?.slice(0, 400) ?? null,
      result: auditResult(o.status, false),
      status_code: o.status,
    },
    described?.subjectUlid !== undefined,
  );
}

/** The subject a handler named through describePublicAudit on this request state, if any. */
export function describedSubject(state: object): PublicAuditSubject | undefined {
  return (state as Record<symbol, PublicAuditSubject | undefined>)[subjectKey];
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
    const params = ctx.params as Record<string, string> | undefined;
    const keyRefused = failure instanceof UnauthorizedError && !principal;
    recordPublicRequest(buffer, {
      principal,
      operationId: state.operation?.operationId,
      status: failure instanceof DomainError ? statusOf(failure) : failure ? 500 : ctx.status,
      keyRefused,
      keySent: keyRefused && readApiKey(ctx) !== undefined,
      method: ctx.method,
      path: ctx.path,
      flagKey: params?.flagKey ?? params?.key,
      described: describedSubject(ctx.state as object),
    });
    if (failure) throw failure;
  };
}
