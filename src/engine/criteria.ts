/**
 * Criterion compilation (semantics: comparers.ts).
 *
 * A criterion is compiled once into a MatchCriterion: the comparer becomes a positive operation
 * plus a `negate` flag (every not* comparer is exactly the negation of its positive form), its
 * values become a Set where that pays, and ordering comparers keep a single numeric threshold.
 * Identical criteria of one compilation become one object, so matching computes them once per
 * evaluation call.
 */
import { parseNumeric } from './numeric.js';
import {
  OP_AFTER,
  OP_BEFORE,
  OP_MATCHES,
  OP_SEMVER_EQ,
  OP_SEMVER_GT,
  OP_SEMVER_GTE,
  OP_SEMVER_LT,
  OP_SEMVER_LTE,
  typedOperands,
} from './typed-comparers.js';
import type { CompiledCriterion } from './types.js';

export const KIND_NEVER = 0;
export const KIND_ATTRIBUTE = 1;
export const KIND_CONTEXT = 2;
export const KIND_SEGMENT = 3;

export const OP_EQUAL = 0;
export const OP_CONTAINS = 1;
export const OP_STARTSWITH = 2;
export const OP_ENDSWITH = 3;
export const OP_GT = 4;
export const OP_GTE = 5;
export const OP_LT = 6;
export const OP_LTE = 7;
export const OP_ISNULL = 8;

/** Above this many values, equality uses a Set instead of a scan. */
const SET_THRESHOLD = 8;

interface ComparerInfo {
  readonly op: number;
  readonly negate: boolean;
  /** Allowed on the context and segment selectors (equality comparers only). */
  readonly identity: boolean;
}

const COMPARER_INFO: ReadonlyMap<string, ComparerInfo> = new Map<string, ComparerInfo>([
  ['equal', { op: OP_EQUAL, negate: false, identity: true }],
  ['in', { op: OP_EQUAL, negate: false, identity: true }],
  ['notequal', { op: OP_EQUAL, negate: true, identity: true }],
  ['notin', { op: OP_EQUAL, negate: true, identity: true }],
  ['contains', { op: OP_CONTAINS, negate: false, identity: false }],
  ['notcontains', { op: OP_CONTAINS, negate: true, identity: false }],
  ['startswith', { op: OP_STARTSWITH, negate: false, identity: false }],
  ['notstartswith', { op: OP_STARTSWITH, negate: true, identity: false }],
  ['endswith', { op: OP_ENDSWITH, negate: false, identity: false }],
  ['notendswith', { op: OP_ENDSWITH, negate: true, identity: false }],
  ['gt', { op: OP_GT, negate: false, identity: false }],
  ['gte', { op: OP_GTE, negate: false, identity: false }],
  ['lt', { op: OP_LT, negate: false, identity: false }],
  ['lte', { op: OP_LTE, negate: false, identity: false }],
  ['isnull', { op: OP_ISNULL, negate: false, identity: false }],
  ['notnull', { op: OP_ISNULL, negate: true, identity: false }],
  ['semver_eq', { op: OP_SEMVER_EQ, negate: false, identity: false }],
  ['semver_lt', { op: OP_SEMVER_LT, negate: false, identity: false }],
  ['semver_gt', { op: OP_SEMVER_GT, negate: false, identity: false }],
  ['semver_lte', { op: OP_SEMVER_LTE, negate: false, identity: false }],
  ['semver_gte', { op: OP_SEMVER_GTE, negate: false, identity: false }],
  ['before', { op: OP_BEFORE, negate: false, identity: false }],
  ['after', { op: OP_AFTER, negate: false, identity: false }],
  ['matches', { op: OP_MATCHES, negate: false, identity: false }],
]);

/** A criterion ready for matching. Always built by makeCriterion, so all share one shape. */
export interface MatchCriterion {
  /** KIND_* */
  readonly kind: number;
  /** OP_* (positive form) */
  readonly op: number;
  readonly negate: boolean;
  /** Attribute slot (KIND_ATTRIBUTE), else -1. */
  readonly attr: number;
  /** Required context type (KIND_CONTEXT with sub_selector), else null. */
  readonly contextType: string | null;
  /** Criterion values. */
  readonly values: readonly string[];
  /** The only value when there is exactly one (equality fast path), else null. */
  readonly single: string | null;
  /** Equality values as a Set when there are many, else null. */
  readonly valueSet: ReadonlySet<string> | null;
  /** gt/gte: smallest numeric criterion value; lt/lte: largest; NaN when none is numeric. */
  readonly threshold: number;
  /** KIND_SEGMENT: indexes of the named segments that exist. */
  readonly segments: readonly number[];
  /** Typed comparers (typed-comparers.ts): the parsed criterion values; else empty. */
  readonly operands: readonly unknown[];
  /**
   * Evaluation call (MatchState.call) whose result `memoMatch` holds. Identical criteria are
   * compiled into one object (CriterionCompileScope.interned), so a criterion repeated across
   * rules, targets or flags is computed once per call. Every criterion is memoised: two stores
   * cost less than telling repeated criteria apart on the hot path.
   */
  memoCall: number;
  memoMatch: boolean;
}

function makeCriterion(
  kind: number,
  op: number,
  negate: boolean,
  attr: number,
  contextType: string | null,
  values: readonly string[],
  threshold: number,
  segments: readonly number[],
  operands: readonly unknown[] = [],
): MatchCriterion {
  const equality = op === OP_EQUAL;
  return {
    kind,
    op,
    negate,
    attr,
    contextType,
    values,
    single: equality && values.length === 1 ? (values[0] as string) : null,
    valueSet: equality && values.length > SET_THRESHOLD ? new Set(values) : null,
    threshold,
    segments,
    operands,
    memoCall: -1, // no call yet (calls count from 1)
    memoMatch: false,
  };
}

export const NEVER_MATCHES: MatchCriterion = makeCriterion(KIND_NEVER, OP_EQUAL, false, -1, null, [], NaN, []);

export interface CriterionCompileScope {
  /** Slot of an attribute name (allocated on first use). */
  attributeSlot(name: string): number;
  /** Index of a segment key, or -1 when there is no such segment. */
  segmentIndex(key: string): number;
  /** False inside segment rules: segment criteria never match there. */
  readonly allowSegmentSelector: boolean;
  /**
   * Criteria compiled so far, by identity key: an identical criterion (rules repeated across
   * targets, or across flags) is compiled into the same object, so its result is computed once
   * per evaluation call. Keys hold attribute slots, so one map serves one slot numbering.
   */
  readonly interned: Map<string, MatchCriterion>;
}

function thresholdOf(op: number, values: readonly string[]): number {
  let t = NaN;
  for (const v of values) {
    const n = parseNumeric(v);
    if (Number.isNaN(n)) continue;
    if (Number.isNaN(t)) t = n;
    else if (op === OP_GT || op === OP_GTE) t = Math.min(t, n);
    else t = Math.max(t, n);
  }
  return t;
}

/** Compiles one criterion of the configuration; identical criteria give the same object. */
export function compileCriterion(c: CompiledCriterion, scope: CriterionCompileScope): MatchCriterion {
  const fresh = compileNew(c, scope);
  if (fresh === NEVER_MATCHES) return fresh;
  const key = JSON.stringify([
    fresh.kind,
    fresh.op,
    fresh.negate,
    fresh.attr,
    fresh.contextType,
    fresh.kind === KIND_SEGMENT ? fresh.segments : fresh.values,
  ]);
  const known = scope.interned.get(key);
  if (known === undefined) {
    scope.interned.set(key, fresh);
    return fresh;
  }
  return known;
}

function compileNew(c: CompiledCriterion, scope: CriterionCompileScope): MatchCriterion {
  const info = COMPARER_INFO.get(c.comparer as string);
  if (info === undefined) return NEVER_MATCHES;
  const values: readonly string[] = Array.isArray(c.values) ? c.values.filter((v): v is string => typeof v === 'string') : [];
  const subSelector = typeof c.sub_selector === 'string' ? c.sub_selector : null;

  switch (c.selector as string) {
    case 'attribute': {
      if (subSelector === null) return NEVER_MATCHES;
      const threshold =
        info.op === OP_GT || info.op === OP_GTE || info.op === OP_LT || info.op === OP_LTE ? thresholdOf(info.op, values) : NaN;
      const operands = info.op >= OP_SEMVER_EQ ? typedOperands(info.op, values) : [];
      return makeCriterion(KIND_ATTRIBUTE, info.op, info.negate, scope.attributeSlot(subSelector), null, values, threshold, [], operands);
    }
    case 'context':
      if (!info.identity) return NEVER_MATCHES;
      return makeCriterion(KIND_CONTEXT, info.op, info.negate, -1, subSelector, values, NaN, []);
    case 'segment': {
      if (!info.identity || !scope.allowSegmentSelector) return NEVER_MATCHES;
      const segments: number[] = [];
      for (const key of values) {
        const idx = scope.segmentIndex(key);
        if (idx >= 0 && !segments.includes(idx)) segments.push(idx);
      }
      return makeCriterion(KIND_SEGMENT, info.op, info.negate, -1, null, values, NaN, segments);
    }
    default:
      return NEVER_MATCHES;
  }
}
