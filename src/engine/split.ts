/**
 * Weighted splits: a rule, or the base of a target, serves one of several values by weight.
 *
 * Weights are integers in thousandths of a percent (SPLIT_WEIGHT_TOTAL = 100000 is 100 %).
 * The value is chosen by weighted rendezvous hashing: for each share, h = murmur3 x86 32 (seed 0)
 * of the UTF-8 bytes of `flagKey/variant/bucketingValue`, u = (h + 0.5) / 2^32, and its score is
 * -ln(u) / weight; the share with the lowest score wins (the earlier share on a tie; a share of
 * weight 0 never wins). The bucketing value is the context's identifier, or the first value of
 * the split's attribute.
 *
 * Why rendezvous rather than contiguous ranges in list order: a context's score for a value
 * depends only on that value and its weight, so a context never moves between two values whose
 * weights both stay the same, whatever the other weights do; and when one weight rises while
 * the others keep their proportions, only contexts moving to the raised value move, as many as
 * the raise. (With ranges in list order, growing the first range shifts every later one.)
 */
import { murmur3Last, murmur3Prefix, type Murmur3State } from './murmur3.js';
import type { CompiledSplit, Context, ContextAttribute, JsonValue } from './types.js';

/** 100 %, in the thousandths of a percent weights are counted in. */
export const SPLIT_WEIGHT_TOTAL = 100000;

export interface SnapshotSplitShare {
  readonly variant: string;
  readonly value: JsonValue;
  readonly weight: number;
  /** murmur3 state after `${flagKey}/${variant}/`. */
  readonly state: Murmur3State;
}

export interface SnapshotSplit {
  /** Context attribute the split buckets by; null: the context's identifier. */
  readonly attribute: string | null;
  readonly shares: readonly SnapshotSplitShare[];
}

const TWO_POW_32 = 4294967296;

export function compileSplit(flagKey: string, split: CompiledSplit | null | undefined): SnapshotSplit | null {
  if (split === null || split === undefined || !Array.isArray(split.shares) || split.shares.length === 0) return null;
  const shares: SnapshotSplitShare[] = [];
  for (const s of split.shares) {
    shares.push({ variant: s.variant, value: s.value, weight: s.weight, state: murmur3Prefix(`${flagKey}/${s.variant}/`, 0) });
  }
  const attribute = typeof split.attribute === 'string' && split.attribute !== '' ? split.attribute : null;
  return { attribute, shares };
}

/** The value a split buckets a context by, or undefined when the context has none. */
export function bucketingValue(split: SnapshotSplit, context: Context | null): string | undefined {
  if (context === null) return undefined;
  if (split.attribute === null) return context.identifier === '' ? undefined : context.identifier;
  const attributes = context.attributes;
  if (attributes === undefined) return undefined;
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i] as ContextAttribute;
    if (a.key === split.attribute) {
      const first = a.values[0];
      return first === undefined || first.value === '' ? undefined : first.value;
    }
  }
  return undefined;
}

/** The share the bucketing value falls in (undefined only when no share has a positive weight). */
export function chooseShare(split: SnapshotSplit, value: string): SnapshotSplitShare | undefined {
  const shares = split.shares;
  let best: SnapshotSplitShare | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let i = 0; i < shares.length; i++) {
    const share = shares[i] as SnapshotSplitShare;
    if (!(share.weight > 0)) continue;
    const u = (murmur3Last(share.state, value) + 0.5) / TWO_POW_32;
    const score = -Math.log(u) / share.weight;
    if (score < bestScore) {
      bestScore = score;
      best = share;
    }
  }
  return best;
}
