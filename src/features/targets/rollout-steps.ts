import type { TargetRecord } from './store-types.js';

/** The steps of an automatic rollout (specs/management.yaml, schema RolloutCreate); reaching 100 completes it. */
export const automaticSteps = [1, 5, 10, 25, 50, 100] as const;

/** The automatic step after `current` percent. */
export function nextAutomaticStep(current: number | null): number {
  return automaticSteps.find((step) => step > (current ?? 0)) ?? 100;
}

/** When the scheduler takes an automatic rollout's next step, and to which percentage. */
export interface NextRolloutStep {
  at: string;
  percentage: number;
}

/**
 * The next step of `target`'s rollout: the start of its current step plus the step interval, as
 * the scheduler decides it (TargetService.advanceRollout). Only a published, active, automatic
 * rollout advances by itself; any other target has none.
 */
export function nextRolloutStep(target: TargetRecord, stepMs: number): NextRolloutStep | null {
  if (
    target.status !== 'published' ||
    target.rollout_mode !== 'automatic' ||
    target.rollout_status !== 'active' ||
    target.rollout_step_started_at === null
  )
    return null;
  return {
    at: new Date(new Date(target.rollout_step_started_at).getTime() + stepMs).toISOString(),
    percentage: nextAutomaticStep(target.rollout_percentage),
  };
}

/** Whether the step interval of `target`'s current step has passed at `now`. */
export function stepIsDue(target: TargetRecord, stepMs: number, now: Date): boolean {
  const next = nextRolloutStep(target, stepMs);
  return next !== null && new Date(next.at).getTime() <= now.getTime();
}
