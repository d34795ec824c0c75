import type { Context, FlagType } from '../engine/index.js';
import { ContextObservations } from './context-observations.js';
import {
  addFlagEvent,
  hourOf,
  later,
  MAX_OBSERVED_LENGTH,
  newFlagDelta,
  PairIndex,
  type DefaultReportDelta,
  type DefaultReportKind,
  type EvaluationHourDelta,
  type FlagEventKind,
  type FlagResolver,
  type FlagTelemetryDelta,
  type Platform,
  type ServedOutcome,
  type ServedPlan,
  type ServedTally,
  type TelemetryBatch,
} from './telemetry-types.js';

export { hourOf, MAX_OBSERVED_LENGTH } from './telemetry-types.js';
export type * from './telemetry-types.js';

/**
 * In-memory aggregation of the telemetry events of the public API (specs/public.yaml: "Payload retrieved",
 * "Flag evaluated", "Flag used"), of default-value reports and of observed contexts. Requests
 * only add to counters in memory; a background flusher drains the buffer and writes one batch.
 * The buffer is bounded: once it holds `maxEntries` distinct keys, events for new keys are
 * dropped (and counted in `dropped`) while events for keys already held still aggregate.
 */

/** Events that cover every flag of an environment for a platform ("payload retrieved", GET /v1/flags). */
interface WholeEnvironmentEvent {
  environmentUlid: string;
  platform: Platform;
  kind: 'retrieved' | 'evaluated';
  count: number;
  lastAt: string;
}

const SEP = '\u0000';

/** Distinct values a slot holds before further values are counted through the hourly index directly. */
const SLOT_VALUES = 16;

/** The display form of a tallied value (booleans as true/false, strings as they are, anything else as JSON). */
function displayOf(held: string | number | boolean | null): string {
  if (typeof held === 'string') return held;
  if (held === true) return 'true';
  if (held === false) return 'false';
  return JSON.stringify(held);
}

/** A flag key's default reports, one per kind. */
type ReportSlot = Partial<Record<DefaultReportKind, DefaultReportDelta>>;

export class TelemetryBuffer {
  private flagIndex = new PairIndex<FlagTelemetryDelta>();
  /** Every flag delta held, in the order first seen. */
  private flags: FlagTelemetryDelta[] = [];
  private whole = new Map<string, WholeEnvironmentEvent>();
  private reportIndex = new PairIndex<ReportSlot>();
  private reports: DefaultReportDelta[] = [];
  private readonly contexts = new ContextObservations(() => this.full());
  /**
   * "missing_default" for every key of a list, by the list (a snapshot's keyList): GET /v1/flags
   * without declarations reports every flag, and one count per request here instead of one per
   * flag is expanded into per-key reports when drained.
   */
  private missingLists = new Map<readonly string[], { environmentUlid: string; count: number; lastAt: string }>();
  /** Hourly evaluation counts by environment and flag, then hour, then value. */
  private hourIndex = new PairIndex<Map<string, Map<string, EvaluationHourDelta>>>();
  private hours: EvaluationHourDelta[] = [];
  /**
   * Served outcomes by snapshot (its flag-ulid map) for the current hour: GET /v1/flags serves
   * every flag, and one map lookup and a short scan per flag here cost a fraction of the hourly
   * index's nested lookups and display strings. Folded into the hourly counts when drained or
   * when the hour changes.
   */
  private tallies = new Map<ReadonlyMap<string, string>, ServedTally>();
  private tallySlots = 0;
  /** Events refused because the buffer was full, since the last drain. */
  dropped = 0;
  /** The same since start (for /metrics). */
  droppedTotal = 0;

  constructor(readonly maxEntries = 50_000) {}

  /** Distinct keys held. */
  get size(): number {
    return (
      this.flags.length +
      this.whole.size +
      this.missingLists.size +
      this.reports.length +
      this.contexts.size +
      this.hours.length +
      this.tallySlots
    );
  }

  /** The context's type, attribute names and values (each attribute counted once per context). */
  recordContext(environmentUlid: string, context: Context, at: string): void {
    this.contexts.record(environmentUlid, context, at);
  }

  private full(): boolean {
    if (this.size < this.maxEntries) return false;
    this.dropped++;
    this.droppedTotal++;
    return true;
  }

  /** A flag event for one flag. */
  recordFlag(environmentUlid: string, flagUlid: string, kind: FlagEventKind, count: number, at: string): void {
    let entry = this.flagIndex.get(environmentUlid, flagUlid);
    if (!entry) {
      if (this.full()) return;
      entry = newFlagDelta(environmentUlid, flagUlid);
      this.flagIndex.set(environmentUlid, flagUlid, entry);
      this.flags.push(entry);
    }
    addFlagEvent(entry, kind, count, at);
  }

  /** `count` evaluations of the flag that served `value` (display form) in the hour of `at`. */
  recordServed(environmentUlid: string, flagUlid: string, value: string, count: number, at: string): void {
    this.recordServedInHour(environmentUlid, flagUlid, value, count, hourOf(at));
  }

  /** recordServed with the hour already worked out (hourOf): one string per request, not per flag served. */
  recordServedInHour(environmentUlid: string, flagUlid: string, value: string, count: number, hour: string): void {
    let byHour = this.hourIndex.get(environmentUlid, flagUlid);
    let byValue = byHour?.get(hour);
    let entry = byValue?.get(value);
    if (!entry) {
      if (this.full()) return;
      entry = { environmentUlid, flagUlid, hour, value, count: 0 };
      if (!byHour) this.hourIndex.set(environmentUlid, flagUlid, (byHour = new Map()));
      if (!byValue) byHour.set(hour, (byValue = new Map()));
      byValue.set(value, entry);
      this.hours.push(entry);
    }
    entry.count += count;
  }

  /**
   * Counts what each outcome served in `hour`, for the flags `flagUlids` names (one snapshot's
   * map, the same object for every request on that snapshot); keys it does not name are skipped.
   */
  recordServedOutcomes(
    environmentUlid: string,
    flagUlids: ReadonlyMap<string, string>,
    outcomes: readonly ServedOutcome[],
    hour: string,
  ): void {
    let tally = this.tallies.get(flagUlids);
    if (tally === undefined || tally.hour !== hour) {
      if (tally !== undefined) this.fold(tally);
      tally = { environmentUlid, hour, slots: new Map() };
      this.tallies.set(flagUlids, tally);
    }
    for (let i = 0; i < outcomes.length; i++) {
      const outcome = outcomes[i] as ServedOutcome;
      let slot = tally.slots.get(outcome.key);
      if (slot === undefined) {
        const flagUlid = flagUlids.get(outcome.key);
        if (flagUlid === undefined || this.full()) continue;
        slot = { flagUlid, values: [], counts: [] };
        tally.slots.set(outcome.key, slot);
        this.tallySlots++;
      }
      const value = outcome.value;
      const held = typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
      const at = slot.values.indexOf(held);
      if (at >= 0) (slot.counts[at] as number)++;
      else if (slot.values.length < SLOT_VALUES) {
        slot.values.push(held);
        slot.counts.push(1);
      } else this.recordServedInHour(environmentUlid, slot.flagUlid, displayOf(held), 1, hour);
    }
  }

  /**
   * recordServedOutcomes for outcomes served again unchanged (the same array, GET /v1/flags for a
   * repeated context): `plan`, returned by the previous call, points at each outcome's count in
   * the open tally, so a repeat adds one to each without a lookup. A plan lasts as long as its
   * tally (a drain or a new hour starts another); none is made when an outcome is not tallied.
   */
  recordServedRepeated(
    environmentUlid: string,
    flagUlids: ReadonlyMap<string, string>,
    outcomes: readonly ServedOutcome[],
    hour: string,
    plan: ServedPlan | undefined,
  ): ServedPlan | undefined {
    if (plan !== undefined && plan.tally === this.tallies.get(flagUlids) && plan.tally.hour === hour) {
      const { counts, at } = plan;
      for (let i = 0; i < counts.length; i++) {
        const slotCounts = counts[i] as number[];
        const index = at[i] as number;
        slotCounts[index] = (slotCounts[index] as number) + 1;
      }
      return plan;
    }
    this.recordServedOutcomes(environmentUlid, flagUlids, outcomes, hour);
    const tally = this.tallies.get(flagUlids);
    if (tally === undefined) return undefined;
    const counts: number[][] = [];
    const at: number[] = [];
    for (const outcome of outcomes) {
      const slot = tally.slots.get(outcome.key);
      const value = outcome.value;
      const index = slot?.values.indexOf(typeof value === 'object' && value !== null ? JSON.stringify(value) : value) ?? -1;
      if (slot === undefined || index < 0) return undefined;
      counts.push(slot.counts);
      at.push(index);
    }
    return { tally, counts, at };
  }

  /** Moves a tally's counts into the hourly counts. */
  private fold(tally: ServedTally): void {
    this.tallySlots -= tally.slots.size;
    for (const slot of tally.slots.values()) {
      for (let i = 0; i < slot.values.length; i++) {
        const held = slot.values[i] as string | number | boolean | null;
        this.recordServedInHour(tally.environmentUlid, slot.flagUlid, displayOf(held), slot.counts[i] as number, tally.hour);
      }
    }
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

  recordDefaultReport(environmentUlid: string, kind: DefaultReportKind, flagKey: string, declaredType: FlagType | null, at: string): void {
    if (flagKey.length > MAX_OBSERVED_LENGTH) return;
    const slot = this.reportIndex.get(environmentUlid, flagKey);
    let entry = slot?.[kind];
    if (!entry) {
      if (this.full()) return;
      entry = { environmentUlid, kind, flagKey, declaredType, count: 0, lastSeenAt: at };
      this.addReport(slot, entry);
    }
    entry.count++;
    if (declaredType !== null) entry.declaredType = declaredType;
    if (at > entry.lastSeenAt) entry.lastSeenAt = at;
  }

  /** A "missing_default" report for each of `keys` (the same list object each time for the same keys). */
  recordMissingDefaults(environmentUlid: string, keys: readonly string[], at: string): void {
    let entry = this.missingLists.get(keys);
    if (!entry) {
      if (this.full()) return;
      entry = { environmentUlid, count: 0, lastAt: at };
      this.missingLists.set(keys, entry);
    }
    entry.count++;
    if (at > entry.lastAt) entry.lastAt = at;
  }

  /** Holds a new default report (the caller checked it is new and that there is room). */
  private addReport(slot: ReportSlot | undefined, entry: DefaultReportDelta): void {
    if (slot) slot[entry.kind] = entry;
    else this.reportIndex.set(entry.environmentUlid, entry.flagKey, { [entry.kind]: entry });
    this.reports.push(entry);
  }

  /**
   * Takes everything recorded so far and empties the buffer. Whole-environment events are
   * expanded to the flags `resolve` names for the environment and platform now.
   */
  drain(resolve: FlagResolver): TelemetryBatch {
    for (const tally of this.tallies.values()) this.fold(tally);
    this.tallies = new Map();
    this.tallySlots = 0;
    const flags = this.flags;
    const flagIndex = this.flagIndex;
    const whole = this.whole;
    const reports = this.reports;
    const reportIndex = this.reportIndex;
    const missingLists = this.missingLists;
    const contexts = this.contexts.take();
    const evaluationHours = this.hours;
    this.hourIndex = new PairIndex();
    this.hours = [];
    this.flagIndex = new PairIndex();
    this.flags = [];
    this.whole = new Map();
    this.reportIndex = new PairIndex();
    this.reports = [];
    this.missingLists = new Map();
    this.dropped = 0;
    for (const event of whole.values()) {
      for (const flagUlid of resolve(event.environmentUlid, event.platform)) {
        let entry = flagIndex.get(event.environmentUlid, flagUlid);
        if (!entry) {
          entry = newFlagDelta(event.environmentUlid, flagUlid);
          flagIndex.set(event.environmentUlid, flagUlid, entry);
          flags.push(entry);
        }
        addFlagEvent(entry, event.kind, event.count, event.lastAt);
      }
    }
    for (const [keys, event] of missingLists) {
      for (const flagKey of keys) {
        if (flagKey.length > MAX_OBSERVED_LENGTH) continue;
        const slot = reportIndex.get(event.environmentUlid, flagKey);
        const held = slot?.missing_default;
        if (held) {
          held.count += event.count;
          if (event.lastAt > held.lastSeenAt) held.lastSeenAt = event.lastAt;
          continue;
        }
        const entry: DefaultReportDelta = {
          environmentUlid: event.environmentUlid,
          kind: 'missing_default',
          flagKey,
          declaredType: null,
          count: event.count,
          lastSeenAt: event.lastAt,
        };
        if (slot) slot.missing_default = entry;
        else reportIndex.set(event.environmentUlid, flagKey, { missing_default: entry });
        reports.push(entry);
      }
    }
    return { flags, defaultReports: reports, contexts, evaluationHours };
  }

  /** Puts back a batch that could not be written, within the bound. */
  restore(batch: TelemetryBatch): void {
    for (const f of batch.flags) {
      let entry = this.flagIndex.get(f.environmentUlid, f.flagUlid);
      if (!entry) {
        if (this.full()) continue;
        entry = newFlagDelta(f.environmentUlid, f.flagUlid);
        this.flagIndex.set(f.environmentUlid, f.flagUlid, entry);
        this.flags.push(entry);
      }
      entry.retrieved += f.retrieved;
      entry.used += f.used;
      entry.evaluated += f.evaluated;
      entry.lastRetrievedAt = later(entry.lastRetrievedAt, f.lastRetrievedAt);
      entry.lastUsedAt = later(entry.lastUsedAt, f.lastUsedAt);
      entry.lastEvaluatedAt = later(entry.lastEvaluatedAt, f.lastEvaluatedAt);
    }
    for (const r of batch.defaultReports) {
      const slot = this.reportIndex.get(r.environmentUlid, r.flagKey);
      const entry = slot?.[r.kind];
      if (entry) {
        entry.count += r.count;
        entry.lastSeenAt = later(entry.lastSeenAt, r.lastSeenAt) as string;
      } else if (!this.full()) {
        this.addReport(slot, { ...r });
      }
    }
    for (const c of batch.contexts) this.contexts.restore(c);
    for (const h of batch.evaluationHours) this.recordServed(h.environmentUlid, h.flagUlid, h.value, h.count, h.hour);
  }
}
