import type { EvaluationOutcome, FlagType, JsonValue, ResolvedBy } from '../../engine/index.js';

export interface OfrepSuccess {
  key: string;
  reason: 'TARGETING_MATCH' | 'SPLIT' | 'STATIC' | 'PREREQUISITE_FAILED';
  variant: string;
  value: JsonValue;
  metadata: { resolved_by: ResolvedBy; type: FlagType; revision: number; split_weight?: number };
}

export interface OfrepItemFailure {
  key: string;
  errorCode: 'GENERAL';
  errorDetails: string;
}

/**
 * OFREP reasons (the protocol's enum has no DEFAULT): a flag without a published target serves
 * its default value without any evaluation, which is STATIC; metadata.resolved_by tells them apart.
 */
const reasons: Record<ResolvedBy, OfrepSuccess['reason']> = {
  rule: 'TARGETING_MATCH',
  rollout: 'SPLIT',
  target: 'STATIC',
  default: 'STATIC',
  prerequisite: 'PREREQUISITE_FAILED',
};

/** The OFREP reason of an outcome: SPLIT whenever a split chose the value. */
export function ofrepReasonOf(outcome: EvaluationOutcome): OfrepSuccess['reason'] {
  return outcome.split !== undefined ? 'SPLIT' : reasons[outcome.resolved_by];
}

/** OFREP `variant`: the value in display form (a split's own variant when a split chose it). */
export function variantOf(outcome: EvaluationOutcome): string {
  if (outcome.split !== undefined) return outcome.split.variant;
  switch (outcome.type) {
    case 'boolean':
      return outcome.value === true ? 'true' : 'false';
    case 'string':
      return typeof outcome.value === 'string' ? outcome.value : JSON.stringify(outcome.value);
    default:
      return JSON.stringify(outcome.value);
  }
}

export function toOfrepSuccess(outcome: EvaluationOutcome, revision: number): OfrepSuccess {
  const split = outcome.split;
  return {
    key: outcome.key,
    reason: ofrepReasonOf(outcome),
    variant: variantOf(outcome),
    value: outcome.value,
    metadata:
      split !== undefined
        ? { resolved_by: outcome.resolved_by, type: outcome.type, revision, split_weight: split.weight }
        : { resolved_by: outcome.resolved_by, type: outcome.type, revision },
  };
}
