import type { components } from '../../../generated/management.js';
import type { Explanation } from '../../engine/explain.js';
import type { Db } from '../../storage/db.js';

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
 * read with their ulids and descriptions (the management preview only; two small queries).
 */
export async function describeExplanation(
  db: Db,
  where: { flagUlid: string; environmentUlid: string },
  why: Explanation | undefined,
): Promise<EvaluationExplanation> {
  if (!why) return noExplanation;
  const rollout = why.rollout
    ? { percentage: why.rollout.percentage, bucket: why.rollout.bucket, in_rollout: why.rollout.inRollout }
    : null;
  if (why.target === null) return { ...noExplanation, rollout };
  const published = (await db('targets')
    .where({ flag_ulid: where.flagUlid, environment_ulid: where.environmentUlid, status: 'published' })
    .orderBy([
      { column: 'published_at', order: 'desc' },
      { column: 'ulid', order: 'desc' },
    ])
    .limit(2)
    .select('ulid')) as Array<{ ulid: string }>;
  const targetUlid = published[why.target === 'serving' ? 0 : 1]?.ulid ?? null;
  const rules = targetUlid
    ? ((await db('rules').where('target_ulid', targetUlid).orderBy('position').select('ulid', 'description')) as Array<{
        ulid: string;
        description: string;
      }>)
    : [];
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
