/**
 * Why an evaluation served what it did: which published target answered, the context's rollout
 * bucket, the first prerequisite that failed, and for each rule tried in order whether it matched
 * or which criterion first did not.
 * Only the management preview asks for this; the serving path never calls it, so evaluate.ts
 * stays as cheap as it is. The steps are evaluate.ts's, in the same order (held to it by
 * test/unit/engine-explain.test.ts over the evaluation vectors).
 */
import { contextBucket } from './bucket.js';
import { matchCriteria } from './comparers.js';
import { firstFailedPrerequisite } from './evaluate.js';
import type { Snapshot } from './snapshot.js';
import type { Context } from './types.js';

export interface RuleCheck {
  /** 0-based position of the rule in its target. */
  readonly position: number;
  readonly matched: boolean;
  /** 0-based position of the first criterion that did not match; null when the rule matched. */
  readonly firstUnmatchedCriterion: number | null;
}

export interface Explanation {
  /** The published target whose rules were tried: the newest, the one before it (outside a rollout), or none. */
  readonly target: 'serving' | 'previous' | null;
  /** While a rollout is in progress: its percentage, the context's bucket (null without an identifier) and the choice. */
  readonly rollout: { readonly percentage: number; readonly bucket: number | null; readonly inRollout: boolean } | null;
  /** The first prerequisite flag of that target that did not serve a required value (then no rule is tried), or null. */
  readonly prerequisiteFailed: string | null;
  /** The rules tried in order, up to and including the one that matched. */
  readonly rules: readonly RuleCheck[];
}

/** Explains the evaluation of one flag for a context (null: no context); undefined for an unknown key. */
export function explainFlag(snapshot: Snapshot, key: string, context: Context | null): Explanation | undefined {
  const flag = snapshot.flagMap.get(key);
  if (flag === undefined) return undefined;
  snapshot.nextStamp();
  let choice: Explanation['target'] = flag.serving === null ? null : 'serving';
  let rollout: Explanation['rollout'] = null;
  if (flag.hasRollout) {
    const bucket =
      context !== null && context.identifier !== ''
        ? contextBucket(flag.bucketState, flag.bucketTypeCache, context.type, context.identifier)
        : null;
    const inRollout = bucket !== null && bucket < flag.rolloutThreshold;
    rollout = { percentage: flag.rolloutThreshold / 100, bucket, inRollout };
    choice = inRollout ? 'serving' : flag.previous === null ? null : 'previous';
  }
  const target = choice === 'serving' ? flag.serving : choice === 'previous' ? flag.previous : null;
  const rules: RuleCheck[] = [];
  const prerequisiteFailed = target === null ? null : firstFailedPrerequisite(snapshot, flag, target, context);
  if (prerequisiteFailed !== null) return { target: choice, rollout, prerequisiteFailed, rules };
  if (target !== null) {
    for (let position = 0; position < target.rules.length; position++) {
      const criteria = target.rules[position]!.criteria;
      let firstUnmatched: number | null = null;
      for (let i = 0; i < criteria.length && firstUnmatched === null; i++) {
        if (!matchCriteria(snapshot, context, [criteria[i]!])) firstUnmatched = i;
      }
      rules.push({ position, matched: firstUnmatched === null, firstUnmatchedCriterion: firstUnmatched });
      if (firstUnmatched === null) break;
    }
  }
  return { target: choice, rollout, prerequisiteFailed, rules };
}
