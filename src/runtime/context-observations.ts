import type { Context, ContextAttribute } from '../engine/index.js';
import { later, MAX_OBSERVED_LENGTH, type ContextObservationDelta, type ContextObservationKind } from './telemetry-types.js';

/** Attributes and values per context that are recorded (contexts may carry more). */
const MAX_ATTRIBUTES_PER_CONTEXT = 100;
const MAX_VALUES_PER_ATTRIBUTE = 100;

/**
 * An environment's context observations, looked up by the names and values themselves (no key
 * strings are built per request): type and attribute by name, value by attribute then value.
 */
interface EnvironmentContexts {
  type: Map<string, ContextObservationDelta>;
  attribute: Map<string, ContextObservationDelta>;
  value: Map<string, Map<string, ContextObservationDelta>>;
}

/** Values an attribute list holds up to this many are de-duplicated by scanning, not with a Set. */
const SMALL_VALUE_LIST = 8;

/** The observation entries one context reached in one environment, while `tables` are the buffer's. */
interface ContextPlan {
  tables: Map<string, EnvironmentContexts>;
  environmentUlid: string;
  entries: ContextObservationDelta[];
}

/**
 * The context observations of the telemetry buffer: each context's type, attribute names and
 * values, counted per environment. `room()` says whether the buffer may hold a new entry (it
 * counts the refusal when not).
 */
export class ContextObservations {
  private tables = new Map<string, EnvironmentContexts>();
  /** The entries each frozen context reached, for the tables they are in (see record). */
  private plans = new WeakMap<Context, ContextPlan>();
  /** Every observation held, in the order first seen. */
  private entries: ContextObservationDelta[] = [];

  constructor(private readonly full: () => boolean) {}

  /** Observations held. */
  get size(): number {
    return this.entries.length;
  }

  /** Takes every observation held and starts empty. */
  take(): ContextObservationDelta[] {
    const taken = this.entries;
    this.tables = new Map();
    this.entries = [];
    return taken;
  }

  /** Puts back an observation of a batch that could not be written, within the bound. */
  restore(c: ContextObservationDelta): void {
    const entry = this.find(c);
    if (entry) {
      entry.count += c.count;
      entry.lastSeenAt = later(entry.lastSeenAt, c.lastSeenAt) as string;
    } else if (!this.full()) {
      this.add({ ...c });
    }
  }

  /** The context's type, attribute names and values (each attribute counted once per context). */
  record(environmentUlid: string, context: Context, at: string): void {
    // What this buys: a context sent again (the decoder's shared, frozen object for a repeated
    // header text) counts its observations through the entries it reached last time, without
    // walking its attributes and three levels of maps (about 1.5 % of a one-flag request's CPU).
    const plan = this.plans.get(context);
    if (plan !== undefined && plan.tables === this.tables && plan.environmentUlid === environmentUlid) {
      for (const entry of plan.entries) {
        entry.count++;
        if (at > entry.lastSeenAt) entry.lastSeenAt = at;
      }
      return;
    }
    const entries: ContextObservationDelta[] = [];
    let complete = this.observe(environmentUlid, 'type', context.type, '', at, entries);
    const attributes = context.attributes;
    for (let i = 0; attributes && i < attributes.length && i < MAX_ATTRIBUTES_PER_CONTEXT; i++) {
      const key = attributes[i]!.key;
      if (key === '' || keyBefore(attributes, i, key)) continue;
      complete = this.observe(environmentUlid, 'attribute', key, '', at, entries) && complete;
      for (const value of distinctValues(attributes, i, key)) {
        complete = this.observe(environmentUlid, 'value', key, value, at, entries) && complete;
      }
    }
    // Only a context that cannot change, and only when every observation was held (a full buffer
    // drops some, and the next request should try them again). Entries are new after a drain.
    if (complete && Object.isFrozen(context)) this.plans.set(context, { tables: this.tables, environmentUlid, entries });
  }

  /**
   * Counts one observation; adds its entry to `reached`. False when a full buffer dropped it (a
   * value too long to observe is skipped, not dropped).
   */
  private observe(
    environmentUlid: string,
    kind: ContextObservationKind,
    name: string,
    value: string,
    at: string,
    reached: ContextObservationDelta[],
  ): boolean {
    if (name.length > MAX_OBSERVED_LENGTH || value.length > MAX_OBSERVED_LENGTH) return true;
    const tables = this.tables.get(environmentUlid);
    const byValue = kind === 'value' ? tables?.value.get(name) : undefined;
    let entry = kind === 'value' ? byValue?.get(value) : tables?.[kind].get(name);
    if (!entry) {
      if (this.full()) return false;
      entry = { environmentUlid, kind, name, value, count: 0, lastSeenAt: at };
      this.add(entry);
    }
    entry.count++;
    if (at > entry.lastSeenAt) entry.lastSeenAt = at;
    reached.push(entry);
    return true;
  }

  /** Holds a new observation (the caller checked it is new and that there is room). */
  private add(entry: ContextObservationDelta): void {
    let tables = this.tables.get(entry.environmentUlid);
    if (!tables) {
      tables = { type: new Map(), attribute: new Map(), value: new Map() };
      this.tables.set(entry.environmentUlid, tables);
    }
    if (entry.kind === 'value') {
      let byValue = tables.value.get(entry.name);
      if (!byValue) {
        byValue = new Map();
        tables.value.set(entry.name, byValue);
      }
      byValue.set(entry.value, entry);
    } else {
      tables[entry.kind].set(entry.name, entry);
    }
    this.entries.push(entry);
  }

  private find(c: ContextObservationDelta): ContextObservationDelta | undefined {
    const tables = this.tables.get(c.environmentUlid);
    return c.kind === 'value' ? tables?.value.get(c.name)?.get(c.value) : tables?.[c.kind].get(c.name);
  }
}

/** Whether an attribute before position `index` has `key` (contexts carry few attributes). */
function keyBefore(attributes: readonly ContextAttribute[], index: number, key: string): boolean {
  for (let j = 0; j < index; j++) if (attributes[j]!.key === key) return true;
  return false;
}

/**
 * The distinct values of attribute `key`, first seen first, at most MAX_VALUES_PER_ATTRIBUTE,
 * from every entry with that key (the first is at `first`).
 */
function distinctValues(attributes: readonly ContextAttribute[], first: number, key: string): string[] {
  const out: string[] = [];
  let seen: Set<string> | undefined;
  for (let g = first; g < attributes.length; g++) {
    const group = attributes[g]!;
    if (group.key !== key) continue;
    for (const { value } of group.values) {
      if (out.length >= MAX_VALUES_PER_ATTRIBUTE) return out;
      if (seen ? seen.has(value) : out.includes(value)) continue;
      out.push(value);
      if (seen) seen.add(value);
      else if (out.length > SMALL_VALUE_LIST) seen = new Set(out);
    }
  }
  return out;
}
