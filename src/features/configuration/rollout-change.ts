import type { components } from '../../../generated/management.js';
import { sameServing } from './serving-comparison.js';

type ConfigurationServing = components['schemas']['ConfigurationServing'];

/**
 * How apply makes a serving change where a rollout is in progress, with the rollout operations a
 * person would use:
 * - `percentage`: same value and rules, another percentage of a manual rollout: update it;
 * - `complete`: same value and rules, no rollout in the file: complete it (everyone gets it);
 * - `replace`: anything else with a rollout in the file: end the rollout in progress (its value
 *   then serves everyone) and publish the file's serving with its own rollout;
 * - `publish`: no rollout in progress, or none in the file: publish the file's serving (publishing
 *   without a rollout replaces whatever served before).
 */
export type ServingStep = { kind: 'publish' } | { kind: 'percentage'; percentage: number } | { kind: 'complete' } | { kind: 'replace' };

export function servingStep(before: ConfigurationServing | null | undefined, after: ConfigurationServing): ServingStep {
  const rolling = before?.rollout;
  if (!before || !rolling) return { kind: 'publish' };
  const sameBase = sameServing({ ...before, rollout: null }, { ...after, rollout: null });
  const wanted = after.rollout;
  if (!wanted) return sameBase ? { kind: 'complete' } : { kind: 'publish' };
  if (sameBase && rolling.mode === 'manual' && wanted.mode === 'manual') return { kind: 'percentage', percentage: wanted.percentage };
  return { kind: 'replace' };
}

/** Why a serving change cannot be applied as the file says, or undefined when it can. */
export function servingStepRefusal(before: ConfigurationServing | null | undefined, after: ConfigurationServing): string | undefined {
  const step = servingStep(before, after);
  if (step.kind === 'percentage' && before?.rollout?.status === 'paused' && before.rollout.percentage !== step.percentage) {
    return 'The rollout in progress here is paused; resume it before changing its percentage.';
  }
  return undefined;
}
