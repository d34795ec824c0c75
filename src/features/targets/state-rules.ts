import { type FieldErrorList, UnprocessableError, ValidationError } from '../../http/errors.js';
import { automaticSteps } from './rollout-steps.js';
import type { RolloutMode, TargetRecord, TargetStatus } from './store-types.js';
import type { Confirmation, FlagEnvironment, RolloutConfig } from './types.js';

/** The statuses a target may be changed in. */
export const editable: readonly TargetStatus[] = ['draft'];
/** The statuses a target may be published or deleted in. */
export const publishable: readonly TargetStatus[] = ['draft', 'scheduled'];

export const messages = {
  notFound: 'Target not found.',
  notDraft: (s: TargetStatus) => `The target is ${s}; only a draft target can be changed.`,
  notPublishable: (s: TargetStatus) => `The target is ${s}; only a draft or scheduled target can be published.`,
  notDeletable: (s: TargetStatus) => `The target is ${s}; only a draft or scheduled target can be deleted.`,
  confirmation: 'This environment requires typed confirmation to publish; publish the target in the web console.',
  rolloutConfirmation: 'This environment requires typed confirmation to change a rollout; change it in the web console.',
  confirmationMismatch: (key: string) => `Type the environment's key "${key}" to confirm publishing here.`,
  noValues: 'The flag has no values; create a value before creating a target.',
  rolloutInProgress:
    'Another rollout of this flag is in progress in this environment; complete or delete it before publishing with a rollout.',
  rolloutNotDraft: (s: TargetStatus) => `The target is ${s}; a rollout can only be configured on a draft target.`,
  rolloutExists: 'The target already has a rollout configured.',
  notPublished: 'The target is not published.',
  noActiveRollout: 'The target has no active rollout.',
  notPaused: 'The rollout is not paused.',
  noRollout: 'The target has no rollout.',
  expired: 'The target is expired; it cannot be changed.',
  alreadyCompleted: 'The rollout is already completed.',
};

export function inProgress(t: TargetRecord): boolean {
  return t.rollout_mode !== null && (t.rollout_status === 'active' || t.rollout_status === 'paused');
}

/**
 * Publishing (rollout changes included) where the environment requires typed
 * confirmation is refused for every token; a person in the console confirms
 * by typing the environment's key.
 */
export function confirmed(ctx: FlagEnvironment, env: { confirmation_required: boolean }, by: Confirmation, refusal: string): void {
  if (!env.confirmation_required) return;
  if (!by.console) throw new UnprocessableError(refusal).withCode('confirmation_required');
  if (by.confirmation !== ctx.environment.key) {
    throw ValidationError.field('confirmation', messages.confirmationMismatch(ctx.environment.key), 'confirmation_required');
  }
}

/**
 * Validates the rollout fields shared by createRollout and publishTarget. Which fields go
 * together is a rule of their combination (`invalid_combination`); the range is the document's.
 */
export function rolloutFields(
  errors: FieldErrorList,
  mode: RolloutMode | undefined,
  percentage: number | undefined,
): RolloutConfig | undefined {
  if (mode === undefined) {
    errors.add('rollout_mode', 'The rollout_mode field is required when rollout_enabled is true.', 'invalid_combination');
    return undefined;
  }
  if (mode === 'manual') {
    if (percentage === undefined || percentage === null) {
      errors.add('rollout_percentage', 'The rollout_percentage field is required for a manual rollout.', 'invalid_combination');
      return undefined;
    }
    if (!Number.isInteger(percentage) || percentage < 1 || percentage > 100) {
      errors.add('rollout_percentage', 'The rollout_percentage field must be an integer from 1 to 100.');
      return undefined;
    }
    return { mode, percentage };
  }
  if (percentage !== undefined) {
    errors.add('rollout_percentage', 'The rollout_percentage field is prohibited for an automatic rollout.', 'invalid_combination');
    return undefined;
  }
  return { mode, percentage: automaticSteps[0] };
}

/** The rollout a target already carries, or null. */
export function rolloutOf(target: TargetRecord): RolloutConfig | null {
  return target.rollout_mode !== null && target.rollout_percentage !== null
    ? { mode: target.rollout_mode, percentage: target.rollout_percentage }
    : null;
}
