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
