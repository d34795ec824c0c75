/**
 * Criterion matching (the comparers of specs/management.yaml, schema Criterion).
 *
 * Criteria are compiled by criteria.ts. `matchCriteria` evaluates an AND of criteria for a
 * context; it is the hot path: each criterion's result is memoised for the evaluation call (on
 * the criterion object, keyed by the global call number), attribute lookups, parsed numbers and
 * segment memberships in the snapshot's scratch (MatchState), and each operation has its own
 * small function.
 *
 * Semantics:
 * - attribute values and criterion values are lists of strings; the positive comparers match when
 *   ANY attribute value matches ANY criterion value (equal/in: exact string equality;
 *   contains/startswith/endswith: substring tests, case-sensitive; gt/gte/lt/lte: both sides must
 *   be numeric (see numeric.ts), a non-numeric value never satisfies an ordering comparison;
 *   semver_*, before, after, matches: see typed-comparers.ts);
 * - an absent attribute (or no context at all) has no values, so every positive comparer except
 *   isnull fails on it and every not* comparer matches;
 * - isnull: attribute absent, or all of its values are empty strings; notnull is its negation;
 * - selector `context` compares the context identifier with equal/notequal/in/notin; when
 *   sub_selector is set the context type must equal it, otherwise the criterion does not match
 *   whatever the comparer (the type requirement is not negated); without a context the
 *   identifier comparison is false (so notequal/notin match unless a type is required);
 * - selector `segment` compares the keys of the segments the context is a member of, with
 *   equal/notequal/in/notin (sub_selector is ignored; an unknown segment key has no members);
 * - a comparer not allowed on its selector, an unknown comparer or selector, an attribute
 *   criterion without sub_selector, and a segment criterion inside a segment rule never match
 *   (not even their not* forms).
 */
import {
  KIND_ATTRIBUTE,
  KIND_CONTEXT,
  KIND_SEGMENT,
  OP_ENDSWITH,
  OP_EQUAL,
  OP_GT,
  OP_GTE,
  OP_ISNULL,
  OP_LT,
  OP_STARTSWITH,
  type MatchCriterion,
} from './criteria.js';
import { parseNumeric } from './numeric.js';
import { FIRST_TYPED_OP, typedPositive } from './typed-comparers.js';
import type { Context, ContextAttribute, ContextAttributeValue } from './types.js';

/** A compiled segment, as matching needs it. */
export interface MatchSegment {
  readonly included: ReadonlySet<string>;
  readonly excluded: ReadonlySet<string>;
  /** Each rule's criteria (AND); the segment matches when any rule matches (OR). */
  readonly rules: readonly (readonly MatchCriterion[])[];
}

/**
 * Scratch memory of one evaluation call (owned by the snapshot). An entry is valid when its
 * stamp equals `stamp`; a new call bumps `stamp`, which invalidates everything at once.
 */
export interface MatchState {
  readonly stamp: number;
  /**
   * Number of the evaluation call, unique across all snapshots (see nextCall): criteria are
   * shared between snapshots (updateSnapshot reuses compiled flags), so their memo must not be
   * keyed by a per-snapshot stamp.
   */
  readonly call: number;
  /** Stamp of the call whose context has been indexed into attrStamp / attrValues. */
  indexedStamp: number;
  readonly attributeSlots: ReadonlyMap<string, number>;
  readonly attrStamp: Int32Array;
  readonly attrValues: (readonly ContextAttributeValue[] | undefined)[];
  readonly numStamp: Int32Array;
  readonly numValue: Float64Array;
  readonly segments: readonly MatchSegment[];
  readonly segStamp: Int32Array;
  readonly segMember: Uint8Array;
}

let lastCall = 0;

/** A new evaluation call number; a double, so it never wraps around (2^53 calls). */
export function nextCall(): number {
  return ++lastCall;
}

/**
 * Indexes the context's attributes by slot, once per evaluation call: one pass over the
 * attributes, each looked up in the snapshot's name -> slot map (names no criterion uses are
 * skipped). An attribute sent twice gets the union of its values (rare; allocates).
 */
function indexContext(st: MatchState, context: Context): void {
  const stamp = st.stamp;
  st.indexedStamp = stamp;
  const attributes = context.attributes;
  if (attributes === undefined) return;
  const slots = st.attributeSlots;
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i] as ContextAttribute;
    const slot = slots.get(a.key);
    if (slot === undefined) continue;
    if (st.attrStamp[slot] !== stamp) {
      st.attrStamp[slot] = stamp;
      st.attrValues[slot] = a.values;
    } else {
      const merged = (st.attrValues[slot] as readonly ContextAttributeValue[]).slice();
      for (let j = 0; j < a.values.length; j++) merged.push(a.values[j] as ContextAttributeValue);
      st.attrValues[slot] = merged;
    }
  }
}

/** Whether `s` equals one of several criterion values (no `single`). */
function equalsOneOf(c: MatchCriterion, s: string): boolean {
  if (c.valueSet !== null) return c.valueSet.has(s);
  const values = c.values;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === s) return true;
  }
  return false;
}

function orderingHolds(op: number, x: number, threshold: number): boolean {
  switch (op) {
    case OP_GT:
      return x > threshold;
    case OP_GTE:
      return x >= threshold;
    case OP_LT:
      return x < threshold;
    default:
      return x <= threshold;
  }
}

/** Positive form of an attribute criterion, dispatched by operation to small functions. */
function attributePositive(st: MatchState, c: MatchCriterion, attr: readonly ContextAttributeValue[] | undefined): boolean {
  const op = c.op;
  if (op === OP_EQUAL) return attr !== undefined && anyEquals(c, attr);
  if (op === OP_ISNULL) return isNull(attr);
  if (attr === undefined) return false;
  if (op >= FIRST_TYPED_OP) return typedPositive(op, c.operands, attr);
  if (op >= OP_GT) return orderingPositive(st, c, attr);
  return textPositive(op, c.values, attr);
}

function anyEquals(c: MatchCriterion, attr: readonly ContextAttributeValue[]): boolean {
  const single = c.single;
  for (let j = 0; j < attr.length; j++) {
    const s = (attr[j] as ContextAttributeValue).value;
    if (single !== null ? s === single : equalsOneOf(c, s)) return true;
  }
  return false;
}

function isNull(attr: readonly ContextAttributeValue[] | undefined): boolean {
  if (attr === undefined) return true;
  for (let i = 0; i < attr.length; i++) {
    if ((attr[i] as ContextAttributeValue).value !== '') return false;
  }
  return true;
}

/** contains, startswith, endswith: any attribute value against any criterion value. */
function textPositive(op: number, values: readonly string[], attr: readonly ContextAttributeValue[]): boolean {
  const n = attr.length;
  const m = values.length;
  for (let i = 0; i < n; i++) {
    const s = (attr[i] as ContextAttributeValue).value;
    for (let j = 0; j < m; j++) {
      const v = values[j] as string;
      if (op === OP_ENDSWITH ? s.endsWith(v) : op === OP_STARTSWITH ? s.startsWith(v) : s.includes(v)) return true;
    }
  }
  return false;
}

/** gt, gte, lt, lte against the criterion's threshold. */
function orderingPositive(st: MatchState, c: MatchCriterion, attr: readonly ContextAttributeValue[]): boolean {
  const t = c.threshold;
  if (t !== t) return false; // no numeric criterion value
  const op = c.op;
  const n = attr.length;
  if (n === 1) {
    // single value: its number is memoised per call (several criteria often test one attribute)
    const slot = c.attr;
    let x: number;
    if (st.numStamp[slot] === st.stamp) {
      x = st.numValue[slot] as number;
    } else {
      x = parseNumeric((attr[0] as ContextAttributeValue).value);
      st.numStamp[slot] = st.stamp;
      st.numValue[slot] = x;
    }
    return x === x && orderingHolds(op, x, t);
  }
  for (let i = 0; i < n; i++) {
    const x = parseNumeric((attr[i] as ContextAttributeValue).value);
    if (x === x && orderingHolds(op, x, t)) return true;
  }
  return false;
}

/**
 * Segment membership (memoised per call): identifier included -> member; else excluded -> not;
 * else any segment rule whose criteria all match. Without a context only the rules apply.
 */
function isSegmentMember(st: MatchState, context: Context | null, index: number): boolean {
  if (st.segStamp[index] === st.stamp) return st.segMember[index] === 1;
  const segment = st.segments[index];
  let member = false;
  if (segment !== undefined) {
    if (context !== null && segment.included.has(context.identifier)) {
      member = true;
    } else if (context !== null && segment.excluded.has(context.identifier)) {
      member = false;
    } else {
      const rules = segment.rules;
      for (let i = 0; i < rules.length; i++) {
        if (matchCriteria(st, context, rules[i] as readonly MatchCriterion[])) {
          member = true;
          break;
        }
      }
    }
  }
  st.segStamp[index] = st.stamp;
  st.segMember[index] = member ? 1 : 0;
  return member;
}

/** Whether all criteria match the context (null: no context). An empty list matches. */
export function matchCriteria(st: MatchState, context: Context | null, criteria: readonly MatchCriterion[]): boolean {
  const count = criteria.length;
  for (let i = 0; i < count; i++) {
    const c = criteria[i] as MatchCriterion;
    if (c.memoCall === st.call) {
      if (!c.memoMatch) return false;
      continue;
    }
    const matched = matchOne(st, context, c);
    c.memoCall = st.call;
    c.memoMatch = matched;
    if (!matched) return false;
  }
  return true;
}

/** Whether one criterion matches (its not* form applied). */
function matchOne(st: MatchState, context: Context | null, c: MatchCriterion): boolean {
  const kind = c.kind;
  let positive: boolean;
  if (kind === KIND_ATTRIBUTE) {
    let values: readonly ContextAttributeValue[] | undefined;
    if (context === null) {
      values = undefined;
    } else {
      if (st.indexedStamp !== st.stamp) indexContext(st, context);
      const slot = c.attr;
      values = st.attrStamp[slot] === st.stamp ? st.attrValues[slot] : undefined;
    }
    positive = attributePositive(st, c, values);
  } else if (kind === KIND_CONTEXT) {
    // a required context type is a precondition for every comparer, not negated
    if (c.contextType !== null && (context === null || context.type !== c.contextType)) return false;
    positive = context !== null && (c.single !== null ? context.identifier === c.single : equalsOneOf(c, context.identifier));
  } else if (kind === KIND_SEGMENT) {
    positive = false;
    const segments = c.segments;
    for (let j = 0; j < segments.length; j++) {
      if (isSegmentMember(st, context, segments[j] as number)) {
        positive = true;
        break;
      }
    }
  } else {
    return false; // KIND_NEVER
  }
  return positive !== c.negate;
}
