import type { FlagType, JsonValue } from '../engine/index.js';

/** What the telemetry buffer holds and hands to its store (telemetry-buffer.ts). */

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

/** Evaluations of one flag in one environment and UTC hour that served one value. */
export interface EvaluationHourDelta {
  environmentUlid: string;
  flagUlid: string;
  /** Start of the hour, ISO 8601 (YYYY-MM-DDTHH:00:00.000Z). */
  hour: string;
  /** The served value in display form. */
  value: string;
  count: number;
}

export interface TelemetryBatch {
  flags: FlagTelemetryDelta[];
  defaultReports: DefaultReportDelta[];
  contexts: ContextObservationDelta[];
  evaluationHours: EvaluationHourDelta[];
}

/** The start of the UTC hour of an ISO time. */
export function hourOf(at: string): string {
  return `${at.slice(0, 13)}:00:00.000Z`;
}

/** The flag ulids a whole-environment event covers (resolved when the buffer is drained). */
export type FlagResolver = (environmentUlid: string, platform: Platform) => readonly string[];

/** Longest name or value stored (the columns are 200 characters wide). */
export const MAX_OBSERVED_LENGTH = 200;
export function later(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

/**
 * Entries found by two strings (environment, then flag ulid or key) through nested maps: no key
 * string is built per lookup, and the strings of a snapshot hash once for all requests.
 */
export class PairIndex<V> {
  private readonly byFirst = new Map<string, Map<string, V>>();

  get(first: string, second: string): V | undefined {
    return this.byFirst.get(first)?.get(second);
  }

  set(first: string, second: string, value: V): void {
    let inner = this.byFirst.get(first);
    if (!inner) {
      inner = new Map();
      this.byFirst.set(first, inner);
    }
    inner.set(second, value);
  }
}

/** What a served outcome is counted by: the flag's key and the value served. */
export interface ServedOutcome {
  readonly key: string;
  readonly value: JsonValue;
}

/**
 * The values one flag served in a tally's hour and how often. A value is held as itself when it
 * is a primitive (compared with ===), an object as its JSON text: the display form is made when
 * the tally is folded, not per request.
 */
export interface ServedSlot {
  flagUlid: string;
  values: Array<string | number | boolean | null>;
  counts: number[];
}

/** Served outcomes of one snapshot's flags (by its flag-ulid map) in one hour. */
export interface ServedTally {
  environmentUlid: string;
  hour: string;
  slots: Map<string, ServedSlot>;
}

/** Where recordServedRepeated adds a repeated list of outcomes: each outcome's count array and index, in one tally. */
export interface ServedPlan {
  readonly tally: ServedTally;
  readonly counts: readonly number[][];
  readonly at: readonly number[];
}

export function newFlagDelta(environmentUlid: string, flagUlid: string): FlagTelemetryDelta {
  return {
    environmentUlid,
    flagUlid,
    retrieved: 0,
    used: 0,
    evaluated: 0,
    lastRetrievedAt: null,
    lastUsedAt: null,
    lastEvaluatedAt: null,
  };
}

export function addFlagEvent(entry: FlagTelemetryDelta, kind: FlagEventKind, count: number, at: string): void {
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
