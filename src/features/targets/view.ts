import type { components } from '../../../generated/management.js';
import type { TargetRecord } from './store-types.js';

type Schemas = components['schemas'];

/** The documented Target: every stored field but the internal automatic-rollout clock. */
export function targetView(t: TargetRecord): Schemas['Target'] {
  return {
    ulid: t.ulid,
    flag_ulid: t.flag_ulid,
    environment_ulid: t.environment_ulid,
    value_ulid: t.value_ulid,
    status: t.status,
    comment: t.comment,
    scheduled_at: t.scheduled_at,
    rollout_percentage: t.rollout_percentage,
    rollout_mode: t.rollout_mode,
    rollout_status: t.rollout_status,
    published_at: t.published_at,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}
