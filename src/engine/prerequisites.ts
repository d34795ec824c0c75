/**
 * Prerequisites of a target (specs/public.yaml, Evaluation order, step 2).
 *
 * A target with prerequisites applies only when each named flag, evaluated for the same context
 * in the same snapshot, serves one of the listed values; otherwise the flag serves its default
 * value with resolved_by `prerequisite`. Values compare as JSON: each required value is kept as
 * its canonical JSON text (object members sorted), and the served value is turned into the same
 * text. A prerequisite on a flag that is itself being evaluated higher up the chain (a cycle) fails,
 * and so does a chain deeper than PREREQUISITE_MAX_DEPTH flags; the management API refuses
 * cycles, so only a hand-made configuration has them.
 */
import type { CompiledPrerequisite, JsonValue } from './types.js';

export const PREREQUISITE_MAX_DEPTH = 32;

export interface SnapshotPrerequisite {
  readonly flagKey: string;
  /** Canonical JSON texts of the accepted values. */
  readonly accepted: ReadonlySet<string>;
}

/** The canonical JSON text of a value: object members in code-unit order, so equal values give equal texts. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as JsonValue)}`).join(',')}}`;
}

export function compilePrerequisites(list: readonly CompiledPrerequisite[] | undefined): readonly SnapshotPrerequisite[] {
  if (!Array.isArray(list) || list.length === 0) return NONE;
  const out: SnapshotPrerequisite[] = [];
  for (const p of list) {
    // a malformed prerequisite names no flag, so it fails
    const valid = p !== null && typeof p === 'object';
    const flagKey = valid && typeof p.flag_key === 'string' ? p.flag_key : '';
    const values = valid && Array.isArray(p.values) ? p.values : [];
    out.push({ flagKey, accepted: new Set(values.map(canonicalJson)) });
  }
  return out;
}

const NONE: readonly SnapshotPrerequisite[] = [];
