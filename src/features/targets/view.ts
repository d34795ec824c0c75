import type { components } from '../../../generated/management.js';
import { splitView } from '../shared/splits.js';
import { nextRolloutStep } from './rollout-steps.js';
import type { TargetRecord } from './store-types.js';

type Schemas = components['schemas'];

/**
 * The documented Target: the stored fields but the internal automatic-rollout clock, and from
 * that clock and the step interval (`rolloutStepMs`) when and to what the rollout advances next.
 */
export function targetView(t: TargetRecord, rolloutStepMs: number): Schemas['Target'] {
  const next = nextRolloutStep(t, rolloutStepMs);
  return {
    ulid: t.ulid,
    flag_ulid: t.flag_ulid,
    environment_ulid: t.environment_ulid,
    value_ulid: t.value_ulid,
    split: splitView(t.split),
    status: t.status,
    comment: t.comment,
    scheduled_at: t.scheduled_at,
    rollout_percentage: t.rollout_percentage,
    rollout_mode: t.rollout_mode,
    rollout_status: t.rollout_status,
    rollout_next_step_at: next?.at ?? null,
    rollout_next_percentage: next?.percentage ?? null,
    published_at: t.published_at,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

/** The rollout a createRollout configured (RolloutSubset): set, active, by the transaction that answers. */
export function rolloutSubsetView(t: TargetRecord): Schemas['RolloutSubset'] {
  if (t.rollout_mode === null || t.rollout_percentage === null || t.rollout_status !== 'active') {
    throw new Error(`target ${t.ulid} has no active rollout after its rollout was configured`);
  }
  return { ulid: t.ulid, rollout_mode: t.rollout_mode, rollout_percentage: t.rollout_percentage, rollout_status: t.rollout_status };
}

/** The rollout a completeRollout completed (RolloutCompleteSubset): 100 %, completed. */
export function rolloutCompleteView(t: TargetRecord): Schemas['RolloutCompleteSubset'] {
  if (t.rollout_percentage !== 100 || t.rollout_status !== 'completed') {
    throw new Error(`target ${t.ulid} is not completed after its rollout was completed`);
  }
  return { ulid: t.ulid, rollout_percentage: t.rollout_percentage, rollout_status: t.rollout_status };
}
