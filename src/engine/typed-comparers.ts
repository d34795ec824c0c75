/**
 * The comparers that read attribute values as versions, date-times or text to search:
 * semver_eq, semver_lt, semver_gt, semver_lte, semver_gte (semver.ts), before, after
 * (instant.ts) and matches (linear-regex.ts). Their criterion values are parsed once, when the
 * criterion is compiled; a criterion value that does not parse is left out (the management API
 * refuses such values, so only a hand-made configuration has them).
 *
 * Like every positive comparer they match when any attribute value matches any criterion
 * value. An attribute value that is not a version (semver_*) or not a date-time with an offset
 * (before, after) never matches, and is counted (invalidAttributeCounts), so a server can
 * report contexts that send malformed versions or dates.
 */
import { compareInstants, type Instant, parseInstant } from './instant.js';
import { compileRegex, type LinearRegex } from './linear-regex.js';
import { compareVersions, parseVersion, type Version } from './semver.js';
import type { ContextAttributeValue } from './types.js';

export const OP_SEMVER_EQ = 9;
export const OP_SEMVER_LT = 10;
export const OP_SEMVER_GT = 11;
export const OP_SEMVER_LTE = 12;
export const OP_SEMVER_GTE = 13;
export const OP_BEFORE = 14;
export const OP_AFTER = 15;
export const OP_MATCHES = 16;

/** First op code handled here (every op from it on is). */
export const FIRST_TYPED_OP = OP_SEMVER_EQ;

const counts = { version: 0, date: 0 };

/** How many attribute values a semver comparer (version) or before/after (date) could not read, since the process started. */
export function invalidAttributeCounts(): { readonly version: number; readonly date: number } {
  return { version: counts.version, date: counts.date };
}

/** The criterion values of a typed comparer, parsed; values that do not parse are left out. */
export function typedOperands(op: number, values: readonly string[]): readonly (Version | Instant | LinearRegex)[] {
  const out: (Version | Instant | LinearRegex)[] = [];
  for (const v of values) {
    if (op === OP_MATCHES) {
      const compiled = compileRegex(v);
      if (compiled.ok) out.push(compiled.regex);
    } else {
      const parsed = op === OP_BEFORE || op === OP_AFTER ? parseInstant(v) : parseVersion(v);
      if (parsed !== null) out.push(parsed);
    }
  }
  return out;
}

function holds(op: number, order: number): boolean {
  switch (op) {
    case OP_SEMVER_EQ:
      return order === 0;
    case OP_SEMVER_LT:
    case OP_BEFORE:
      return order < 0;
    case OP_SEMVER_GT:
    case OP_AFTER:
      return order > 0;
    case OP_SEMVER_LTE:
      return order <= 0;
    default:
      return order >= 0;
  }
}

/** Whether any attribute value matches any operand. */
export function typedPositive(op: number, operands: readonly unknown[], attr: readonly ContextAttributeValue[]): boolean {
  if (operands.length === 0) return false;
  for (let i = 0; i < attr.length; i++) {
    const s = (attr[i] as ContextAttributeValue).value;
    if (op === OP_MATCHES) {
      for (let j = 0; j < operands.length; j++) {
        if ((operands[j] as LinearRegex).test(s)) return true;
      }
    } else if (op === OP_BEFORE || op === OP_AFTER) {
      const instant = parseInstant(s);
      if (instant === null) {
        counts.date++;
        continue;
      }
      for (let j = 0; j < operands.length; j++) {
        if (holds(op, compareInstants(instant, operands[j] as Instant))) return true;
      }
    } else {
      const version = parseVersion(s);
      if (version === null) {
        counts.version++;
        continue;
      }
      for (let j = 0; j < operands.length; j++) {
        if (holds(op, compareVersions(version, operands[j] as Version))) return true;
      }
    }
  }
  return false;
}

/** Why a criterion value cannot be used with a typed comparer, or null when it can. */
export function typedValueProblem(comparer: string, value: string): string | null {
  if (comparer.startsWith('semver_')) {
    return parseVersion(value) === null ? 'must be a semantic version such as 1.2.3 or 2.0.0-beta.1' : null;
  }
  if (comparer === 'before' || comparer === 'after') {
    return parseInstant(value) === null ? 'must be a date-time with an offset, such as 2026-01-01T00:00:00Z' : null;
  }
  if (comparer === 'matches') {
    const compiled = compileRegex(value);
    return compiled.ok ? null : `must be a regular expression Vexil can run in linear time (${compiled.reason})`;
  }
  return null;
}
