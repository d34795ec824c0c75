import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { isoOf, type Clock } from '../clock.js';
import type { BackgroundTask } from '../core.js';
import { poller } from '../poller.js';
import { appendBlocksServingThread } from '../storage/prepared-sql.js';
import { auditUlid } from './audit-ids.js';
import {
  ENTRY_STRIDE,
  sharedValuesOf,
  sharesValues,
  type EntrySlots,
  type PublicAuditRow,
  type SharedPart,
} from './public-audit-entries.js';
import { defaultPublicAuditMode, type PublicAuditMode } from './public-audit-mode.js';
import { KnexPublicAuditStore } from './public-audit-store.js';

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
  private entries: EntrySlots = [];
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
  private readonly store: KnexPublicAuditStore;

  constructor(
    private readonly knex: Knex,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: PublicAuditBufferOptions = {},
  ) {
    this.mode = options.mode ?? defaultPublicAuditMode;
    this.capacity = options.capacity ?? 50_000;
    this.batchSize = options.batchSize;
    this.store = new KnexPublicAuditStore(knex);
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

  /**
   * Seconds since the oldest entry waiting to be written was recorded (0 when none waits): what a
   * process killed now would lose the most of, in time (aggregate's open minute aside).
   */
  oldestUnwrittenSeconds(): number {
    if (this.waiting === 0) return 0;
    const createdAt = this.entries[this.head * ENTRY_STRIDE + 2] as string;
    return Math.max(0, (this.clock.now().getTime() - Date.parse(createdAt)) / 1000);
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
      await this.store.write(await this.store.statements(this.entries, this.head, length, isoOf(this.clock.now())));
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
}
