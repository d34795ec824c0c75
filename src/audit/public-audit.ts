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
import { auditUlid } from './audit-ids.js';
import { partColumns, partRowColumns, publicAuditPartId, requestColumns, requestRowColumns, type PartValue } from './public-audit-parts.js';
import { append, appendBlocksServingThread, insertText, type AppendStatement } from '../storage/prepared-sql.js';
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

type Value = PartValue;
/** Values of its own per entry (ulid, created_at, count). */
const OWN = requestColumns.length;

/**
 * What many entries share, held once (the entries point at it), and written once as a row of
 * public_audit_parts (public-audit-parts.ts). `flagByKey`: the subject is a flag the handler did
 * not name, so its ulid is looked up by key when the entry is written. `id`: its row's id, once
 * computed (never for a part named by key: the named values decide it, batch by batch).
 */
interface SharedPart {
  values: Value[];
  flagByKey: boolean;
  id?: string;
}

/** `aggregate`: the open minute's entry of one group, counted. */
interface Group {
  part: SharedPart;
  ulid: string;
  createdAt: string;
  count: number;
}

/** Keys, and paths per key, whose shared parts are held for reuse at most; past that a table starts again (entries keep theirs). */
const SHARED_PARTS_TABLE_SIZE = 4096;
/** Shared parts held per key and path at most (outcomes, subjects): the oldest makes room. */
const SHARED_PARTS_PER_PATH = 8;

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
  /**
   * Buffered entries, ENTRY_STRIDE slots each (shared part, ulid, created_at, count): no object
   * per request to keep alive until it is written. Entries before `head` are written already
   * (dropped from the array in bulk).
   */
  private entries: Array<SharedPart | string | number> = [];
  private head = 0;
  /**
   * Shared parts by key (actor) and request path, so that equal entries point at one. Found by
   * comparing values: a string of all thirteen, built and hashed for every request, cost more
   * than the rest of recording the entry.
   */
  private sharedParts = new Map<string | null, Map<string, SharedPart[]>>();
  private dropped = 0;
  /** Since the first entry dropped in this overflow (logged once), until the buffer drains. */
  private overflowing = false;
  /** `sample`: the fraction of a successful request owed so far; one is recorded when it reaches 1. */
  private sampleCredit = 0;
  /** `aggregate`: the open minute's entries by group, moved into `entries` once the minute is over. */
  private groups = new Map<string, Group>();
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
    return this.waiting + this.groups.size;
  }

  /** Entries waiting to be written. */
  private get waiting(): number {
    return this.entries.length / ENTRY_STRIDE - this.head;
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
    this.entries.push(this.sharedPartOf(row, subjectNamed), auditUlid(now), isoOf(now), 1);
    // A full statement's worth is handed over at once rather than at the next tick of the task:
    // the database (or SQLite's worker thread) inserts steadily instead of a second's rows in one
    // burst that takes a core from the answers. A failure is left to the task, which retries and
    // logs it.
    if (this.waiting >= HANDED_OVER_BATCH && this.flushing === undefined && !appendBlocksServingThread(this.knex)) {
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
    this.groups.set(group, { part: this.sharedPartOf(row, subjectNamed), ulid: auditUlid(now), createdAt: isoOf(now), count: 1 });
  }

  /** Moves the open minute's groups to the entries to write (the minute is over, or the task stops). */
  private sealGroups(): void {
    if (this.groups.size === 0) return;
    for (const group of this.groups.values()) this.entries.push(group.part, group.ulid, group.createdAt, group.count);
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

  /** The shared part of `row`'s entry: the one held for equal values, or a new one. */
  private sharedPartOf(row: Omit<PublicAuditRow, 'ulid' | 'created_at'>, subjectNamed: boolean): SharedPart {
    const flagByKey =
      !subjectNamed && row.subject_type === 'flag' && row.subject_ulid === null && !!row.subject_label && !!row.project_ulid;
    let paths = this.sharedParts.get(row.actor_ulid);
    if (paths === undefined) {
      if (this.sharedParts.size >= SHARED_PARTS_TABLE_SIZE) this.sharedParts.clear();
      paths = new Map();
      this.sharedParts.set(row.actor_ulid, paths);
    }
    let held = paths.get(row.http_path);
    if (held === undefined) {
      if (paths.size >= SHARED_PARTS_TABLE_SIZE) paths.clear();
      held = [];
      paths.set(row.http_path, held);
    }
    for (const part of held) if (part.flagByKey === flagByKey && sharesValues(part.values, row)) return part;
    const part: SharedPart = { values: sharedValuesOf(row), flagByKey };
    if (held.length >= SHARED_PARTS_PER_PATH) held.shift();
    held.push(part);
    return part;
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
    while (this.waiting > 0) {
      // Between batches, let waiting requests run (a synchronous driver blocks while it writes).
      if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
      first = false;
      // A failed batch stays where it is (head does not move) for the next run; this run stops.
      const length = Math.min(this.batchLength(this.waiting), this.waiting);
      // The batch's parts first (an upsert: a part another instance or an earlier batch wrote
      // only gets its last_seen_at moved on), then one multi-row INSERT of its requests. Texts
      // are cached per row count and (SQLite) prepared once. The INSERT is atomic and the upsert
      // may run again, so a failed batch is retried whole without duplicates.
      await append(this.knex, await this.statements(this.head, length));
      this.head += length;
      this.writtenTotal += length;
      // Drop written entries in bulk: shifting the array per batch made a long flush quadratic.
      if (this.waiting === 0 || this.head >= 4096) {
        this.entries = this.entries.slice(this.head * ENTRY_STRIDE);
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
   * Entries `from` to `from + length` as the two statements that write them: the upsert of their
   * parts (each once) and the INSERT of their requests. A shared part whose flag the handler did
   * not name gets its flag's ulid looked up by key here, one query per batch (handlers that know
   * the flag name it: describePublicAudit).
   */
  private async statements(from: number, length: number): Promise<AppendStatement[]> {
    const parts: SharedPart[] = [];
    const indexes = new Map<SharedPart, number>();
    const byKey: SharedPart[] = [];
    for (let slot = from * ENTRY_STRIDE, end = (from + length) * ENTRY_STRIDE; slot < end; slot += ENTRY_STRIDE) {
      const part = this.entries[slot] as SharedPart;
      if (indexes.has(part)) continue;
      indexes.set(part, parts.push(part) - 1);
      if (part.flagByKey) byKey.push(part);
    }
    // This batch's values and id of each part (a part named by key: a named copy).
    const values = parts.map((part) => part.values);
    const ids = parts.map((part) => (part.flagByKey ? '' : (part.id ??= publicAuditPartId(part.values))));
    if (byKey.length > 0) await this.nameFlags(byKey, values, indexes);
    for (const part of byKey) {
      const index = indexes.get(part) as number;
      ids[index] = publicAuditPartId(values[index] as Value[]);
    }
    const seenAt = isoOf(this.clock.now());
    // Two parts of equal values (one named by key, one by its handler) are one row. In the order
    // of their ids: instances upserting the same parts lock them in one order, so MySQL/MariaDB
    // never finds two of them waiting for each other.
    const byId = new Map<string, Value[]>();
    for (let index = 0; index < parts.length; index++) byId.set(ids[index] as string, values[index] as Value[]);
    const written = [...byId.keys()].sort();
    const partRows: Value[] = [];
    for (const id of written) partRows.push(id, seenAt, ...(byId.get(id) as Value[]));
    // Padded to a power of two rows by repeating the last part (upserting a row twice is
    // upserting it once): at most eleven statement texts, which the worker keeps prepared.
    // Not on PostgreSQL, which refuses an upsert touching a row twice (and prepares no texts here).
    let partCount = 1;
    while (partCount < written.length) partCount <<= 1;
    if ((this.knex.client as { driverName?: string }).driverName === 'pg') partCount = written.length;
    const partWidth = partRowColumns.length;
    const last = partRows.slice(-partWidth);
    for (let padding = written.length; padding < partCount; padding++) partRows.push(...last);
    const requestRows: Value[] = [];
    for (let slot = from * ENTRY_STRIDE, end = (from + length) * ENTRY_STRIDE; slot < end; slot += ENTRY_STRIDE) {
      const part = this.entries[slot] as SharedPart;
      requestRows.push(this.entries[slot + 1] as string, this.entries[slot + 2] as string, this.entries[slot + 3] as number);
      requestRows.push(ids[indexes.get(part) as number] as string);
    }
    return [
      { sql: insertText('public_audit_parts', partRowColumns, partCount, this.partConflict), values: partRows },
      { sql: insertText('public_audit_requests', requestRowColumns, length), values: requestRows },
    ];
  }

  /**
   * What the parts upsert does with a part already stored: keeps it, moving its last_seen_at
   * on (never back: instances' clocks differ), so retention keeps the parts requests still use.
   */
  private get partConflict(): string {
    const driver = (this.knex.client as { driverName?: string }).driverName;
    if (driver === 'mysql2') return ' ON DUPLICATE KEY UPDATE `last_seen_at` = GREATEST(`last_seen_at`, VALUES(`last_seen_at`))';
    // PostgreSQL: the stored row's column is qualified (unqualified it is ambiguous with excluded's).
    if (driver === 'pg') {
      return ' ON CONFLICT (`id`) DO UPDATE SET `last_seen_at` = GREATEST(`public_audit_parts`.`last_seen_at`, excluded.`last_seen_at`)';
    }
    return ' ON CONFLICT (`id`) DO UPDATE SET `last_seen_at` = max(`last_seen_at`, excluded.`last_seen_at`)';
  }

  /** Puts the flag ulid of each of `parts` (null for an unknown key) into this batch's copy of its values. */
  private async nameFlags(parts: SharedPart[], shared: Value[][], indexes: Map<SharedPart, number>): Promise<void> {
    const project = partColumns.indexOf('project_ulid');
    const label = partColumns.indexOf('subject_label');
    const subject = partColumns.indexOf('subject_ulid');
    const projects = [...new Set(parts.map((part) => part.values[project] as string))];
    const keys = [...new Set(parts.map((part) => part.values[label] as string))];
    const flags: Array<{ ulid: string; key: string; project_ulid: string }> = await this.knex('flags')
      .whereIn('project_ulid', projects)
      .whereIn('key', keys)
      .select('ulid', 'key', 'project_ulid');
    const ulidByKey = new Map(flags.map((flag) => [`${flag.project_ulid}/${flag.key}`, flag.ulid]));
    for (const part of parts) {
      // A copy: the shared part stays unnamed, for a flag created later under the same key.
      const values = [...part.values];
      values[subject] = ulidByKey.get(`${values[project]}/${values[label]}`) ?? null;
      shared[indexes.get(part) as number] = values;
    }
  }
}

/** Slots per buffered entry: its shared part, ulid, created_at and count. */
const ENTRY_STRIDE = 1 + OWN;

/** `row`'s values of the shared columns, in their order (spelled out: one array shape, no lookups by name). */
function sharedValuesOf(row: Omit<PublicAuditRow, 'ulid' | 'created_at'>): Value[] {
  return [
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
  ];
}

/** Whether `values` (a shared part's) are `row`'s, column by column. */
function sharesValues(values: Value[], row: Omit<PublicAuditRow, 'ulid' | 'created_at'>): boolean {
  return (
    values[12] === row.status_code &&
    values[10] === row.subject_label &&
    values[9] === row.subject_ulid &&
    values[1] === row.actor_ulid &&
    values[7] === row.action &&
    values[11] === row.result &&
    values[8] === row.subject_type &&
    values[2] === row.environment_ulid &&
    values[3] === row.environment_key &&
    values[4] === row.project_ulid &&
    values[0] === row.actor_type &&
    values[5] === row.http_method &&
    values[6] === row.http_path
  );
}

const subjectKey = Symbol('publicAuditSubject');

/** Lets a public handler name the subject of its audit entry (for example a flag's ulid). */
export function describePublicAudit(ctx: Koa.Context, subject: PublicAuditSubject): void {
  const state = ctx.state as Record<symbol, PublicAuditSubject | undefined>;
  const named = state[subjectKey];
  state[subjectKey] = named === undefined ? subject : { ...named, ...subject };
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
