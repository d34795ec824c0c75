import type { components } from '../../../generated/management.js';
import type { Explanation } from '../../engine/explain.js';
import type { Db } from '../../storage/db.js';
import type { ExplanationStore } from './store-types.js';

type EvaluationExplanation = components['schemas']['EvaluationExplanation'];

/** Nothing answered: no target, no rollout, no rule (an unknown flag or one without values). */
export const noExplanation: EvaluationExplanation = {
  target: 'none',
  target_ulid: null,
  rollout: null,
  prerequisite_failed: null,
  rules: [],
};

/**
 * The engine's explanation in the API's terms: the target and rules it names by position,
 * read with their ulids and descriptions through the store (the management preview only; two small queries).
 */
export async function describeExplanation(
  store: ExplanationStore,
  db: Db,
  where: { flagUlid: string; environmentUlid: string },
  why: Explanation | undefined,
): Promise<EvaluationExplanation> {
  if (!why) return noExplanation;
  const rollout = why.rollout
    ? { percentage: why.rollout.percentage, bucket: why.rollout.bucket, in_rollout: why.rollout.inRollout }
    : null;
  if (why.target === null) return { ...noExplanation, rollout };
  const published = await store.publishedTargetUlids(db, where.flagUlid, where.environmentUlid, 2);
  const targetUlid = published[why.target === 'serving' ? 0 : 1] ?? null;
  const rules = targetUlid ? await store.ruleDescriptions(db, targetUlid) : [];
  return {
    target: why.target === 'serving' ? 'newest' : 'previous',
    target_ulid: targetUlid,
    rollout,
    prerequisite_failed: why.prerequisiteFailed,
    rules: why.rules.map((check) => ({
      position: check.position,
      ulid: rules[check.position]?.ulid ?? '',
      description: rules[check.position]?.description ?? '',
      matched: check.matched,
      first_unmatched_criterion: check.firstUnmatchedCriterion,
    })),
  };
}
