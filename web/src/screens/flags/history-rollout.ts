import type { Schemas } from '../../api/client';

/**
 * A publish's rollout as the history tells it. An expired target whose rollout had not reached
 * 100 % was stopped by a newer publish (the switch's or another: the API does not say which).
 */
export function historyRolloutText(target: Schemas['Target']): string {
  const { rollout_mode: mode, rollout_percentage: percentage, rollout_status: status } = target;
  if (!mode) return '';
  const rollout = `${mode} rollout`;
  if (status === 'completed') {
    return percentage === 100 ? `${rollout} completed` : `${rollout} stopped at ${percentage ?? 0}% by a newer publish`;
  }
  return `${rollout} at ${percentage ?? 0}%${status ? ` (${status})` : ''}`;
}
