import type { Context, FlagType } from '../engine/index.js';

/**
 * In-memory aggregation of the telemetry events of SPEC.md section 6 ("Payload retrieved",
 * "Flag evaluated", "Flag used"), of default-value reports and of observed contexts. Requests
 * only add to counters in memory; a background flusher drains the buffer and writes one batch.
 * The buffer is bounded: once it holds `maxEntries` distinct keys, events for new keys are
 * dropped (and counted in `dropped`) while events for keys already held still aggregate.
 */

export type FlagEventKind = 'retrieved' | 'used' | 'evaluated';
export type Platform = 'server' | 'mobile' | 'client';
export type DefaultReportKind = 'missing_default' | 'unknown_flag';
export type ContextObservationKind = 'type' | 'attribute' | 'value';

export interface FlagTelemetryDelta {
  environmentUlid: string;
  flagUlid: string;
  retrieved: number;
  used: number;
  evaluated: number;
  lastRetrievedAt: string | null;
  lastUsedAt: string | null;
  lastEvaluatedAt: string | null;
}

export interface DefaultReportDelta {
  environmentUlid: string;
  kind: DefaultReportKind;
  flagKey: string;
  declaredType: FlagType | null;
  count: number;
  lastSeenAt: string;
}

export interface ContextObservationDelta {
  environmentUlid: string;
  kind: ContextObservationKind;
  name: string;
  /** '' for kinds type and attribute. */
  value: string;
  count: number;
  lastSeenAt: string;
}

export interface TelemetryBatch {
  flags: FlagTelemetryDelta[];
  defaultReports: DefaultReportDelta[];
  contexts: ContextObservationDelta[];
}

/** Events that cover every flag of an environment for a platform ("payload retrieved", GET /v1/flags). */
interface WholeEnvironmentEvent {
  environmentUlid: string;
  platform: Platform;
  kind: 'retrieved' | 'evaluated';
  count: number;
  lastAt: string;
}

/** The flag ulids a whole-environment event covers (resolved when the buffer is drained). */
export type FlagResolver = (environmentUlid: string, platform: Platform) => readonly string[];

/** Longest name or value stored (the columns are 200 characters wide). */
export const MAX_OBSERVED_LENGTH = 200;
/** Attributes and values per context that are recorded (contexts may carry more). */
const MAX_ATTRIBUTES_PER_CONTEXT = 100;
const MAX_VALUES_PER_ATTRIBUTE = 100;

const SEP = '\u0000';

function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

export class TelemetryBuffer {
  private flags = new Map<string, FlagTelemetryDelta>();
  private whole = new Map<string, WholeEnvironmentEvent>();
  private reports = new Map<string, DefaultReportDelta>();
  private contexts = new Map<string, ContextObservationDelta>();
  /** Events refused because the buffer was full, since the last drain. */
  dropped = 0;

  constructor(readonly maxEntries = 50_000) {}

  /** Distinct keys held. */
  get size(): number {
    return this.flags.size + this.whole.size + this.reports.size + this.contexts.size;
  }

  private full(): boolean {
    if (this.size < this.maxEntries) return false;
    this.dropped++;
    return true;
  }

  /** A flag event for one flag. */
  recordFlag(environmentUlid: string, flagUlid: string, kind: FlagEventKind, count: number, at: string): void {
    const key = environmentUlid + SEP + flagUlid;
    let entry = this.flags.get(key);
    if (!entry) {
      if (this.full()) return;
      entry = {
        environmentUlid,
        flagUlid,
        retrieved: 0,
        used: 0,
        evaluated: 0,
        lastRetrievedAt: null,
        lastUsedAt: null,
        lastEvaluatedAt: null,
      };
      this.flags.set(key, entry);
    }
    addFlagEvent(entry, kind, count, at);
  }

  /** An event covering every flag of the environment visible on `platform`. */
  recordWholeEnvironment(environmentUlid: string, platform: Platform, kind: 'retrieved' | 'evaluated', at: string): void {
    const key = environmentUlid + SEP + platform + SEP + kind;
    let entry = this.whole.get(key);
    if (!entry) {
      if (this.full()) return;
      entry = { environmentUlid, platform, kind, count: 0, lastAt: at };
      this.whole.set(key, entry);
    }
    entry.count++;
    if (at > entry.lastAt) entry.lastAt = at;
  }

  recordDefaultReport(
    environmentUlid: string,
    kind: DefaultReportKind,
    flagKey: string,
    declaredType: FlagType | null,
    at: string,
  ): void {
    if (flagKey.length > MAX_OBSERVED_LENGTH) return;
    const key = environmentUlid + SEP + kind + SEP + flagKey;
    let entry = this.reports.get(key);
    if (!entry) {
      if (this.full()) return;
      entry = { environmentUlid, kind, flagKey, declaredType, count: 0, lastSeenAt: at };
      this.reports.set(key, entry);
    }
    entry.count++;
    if (declaredType !== null) entry.declaredType = declaredType;
    if (at > entry.lastSeenAt) entry.lastSeenAt = at;
  }

  /** The context's type, attribute names and values (each attribute counted once per context). */
  recordContext(environmentUlid: string, context: Context, at: string): void {
    this.observe(environmentUlid, 'type', context.type, '', at);
    const attributes = context.attributes ?? [];
    const seen = new Set<string>();
    for (let i = 0; i < attributes.length && i < MAX_ATTRIBUTES_PER_CONTEXT; i++) {
      const attribute = attributes[i]!;
      if (attribute.key === '' || seen.has(attribute.key)) continue;
      seen.add(attribute.key);
      this.observe(environmentUlid, 'attribute', attribute.key, '', at);
      const values = new Set<string>();
      for (const group of attributes) {
        if (group.key !== attribute.key) continue;
        for (const v of group.values) if (values.size < MAX_VALUES_PER_ATTRIBUTE) values.add(v.value);
      }
      for (const value of values) this.observe(environmentUlid, 'value', attribute.key, value, at);
    }
  }

  private observe(environmentUlid: string, kind: ContextObservationKind, name: string, value: string, at: string): void {
    if (name.length > MAX_OBSERVED_LENGTH || value.length > MAX_OBSERVED_LENGTH) return;
    const key = environmentUlid + SEP + kind + SEP + name + SEP + value;
    let entry = this.contexts.get(key);
    if (!entry) {
      if (this.full()) return;
      entry = { environmentUlid, kind, name, value, count: 0, lastSeenAt: at };
      this.contexts.set(key, entry);
    }
    entry.count++;
    if (at > entry.lastSeenAt) entry.lastSeenAt = at;
  }

  /**
   * Takes everything recorded so far and empties the buffer. Whole-environment events are
   * expanded to the flags `resolve` names for the environment and platform now.
   */
  drain(resolve: FlagResolver): TelemetryBatch {
    const flags = this.flags;
    const whole = this.whole;
    const reports = this.reports;
    const contexts = this.contexts;
    this.flags = new Map();
    this.whole = new Map();
    this.reports = new Map();
    this.contexts = new Map();
    this.dropped = 0;
    for (const event of whole.values()) {
      for (const flagUlid of resolve(event.environmentUlid, event.platform)) {
        const key = event.environmentUlid + SEP + flagUlid;
        let entry = flags.get(key);
        if (!entry) {
          entry = {
            environmentUlid: event.environmentUlid,
            flagUlid,
            retrieved: 0,
            used: 0,
            evaluated: 0,
            lastRetrievedAt: null,
            lastUsedAt: null,
            lastEvaluatedAt: null,
          };
          flags.set(key, entry);
        }
        addFlagEvent(entry, event.kind, event.count, event.lastAt);
      }
    }
    return { flags: [...flags.values()], defaultReports: [...reports.values()], contexts: [...contexts.values()] };
  }

  /** Puts back a batch that could not be written, within the bound. */
  restore(batch: TelemetryBatch): void {
    for (const f of batch.flags) {
      const key = f.environmentUlid + SEP + f.flagUlid;
      let entry = this.flags.get(key);
      if (!entry) {
        if (this.full()) continue;
        entry = { ...f, retrieved: 0, used: 0, evaluated: 0, lastRetrievedAt: null, lastUsedAt: null, lastEvaluatedAt: null };
        this.flags.set(key, entry);
      }
      entry.retrieved += f.retrieved;
      entry.used += f.used;
      entry.evaluated += f.evaluated;
      entry.lastRetrievedAt = later(entry.lastRetrievedAt, f.lastRetrievedAt);
      entry.lastUsedAt = later(entry.lastUsedAt, f.lastUsedAt);
      entry.lastEvaluatedAt = later(entry.lastEvaluatedAt, f.lastEvaluatedAt);
    }
    for (const r of batch.defaultReports) {
      const key = r.environmentUlid + SEP + r.kind + SEP + r.flagKey;
      const entry = this.reports.get(key);
      if (entry) {
        entry.count += r.count;
        entry.lastSeenAt = later(entry.lastSeenAt, r.lastSeenAt) as string;
      } else if (!this.full()) {
        this.reports.set(key, { ...r });
      }
    }
    for (const c of batch.contexts) {
      const key = c.environmentUlid + SEP + c.kind + SEP + c.name + SEP + c.value;
      const entry = this.contexts.get(key);
      if (entry) {
        entry.count += c.count;
        entry.lastSeenAt = later(entry.lastSeenAt, c.lastSeenAt) as string;
      } else if (!this.full()) {
        this.contexts.set(key, { ...c });
      }
    }
  }
}

function addFlagEvent(entry: FlagTelemetryDelta, kind: FlagEventKind, count: number, at: string): void {
  switch (kind) {
    case 'retrieved':
      entry.retrieved += count;
      entry.lastRetrievedAt = later(entry.lastRetrievedAt, at);
      break;
    case 'used':
      entry.used += count;
      entry.lastUsedAt = later(entry.lastUsedAt, at);
      break;
    case 'evaluated':
      entry.evaluated += count;
      entry.lastEvaluatedAt = later(entry.lastEvaluatedAt, at);
      break;
  }
}
