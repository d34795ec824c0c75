import type { ManagementPrincipal } from '../../auth/principal.js';
import { FieldErrorList, UnprocessableError } from '../../http/errors.js';
import type { Auditor } from '../shared/transactions.js';
import { changeSubject, readSubject } from './audit-subject.js';
import { reload, withLockedTarget } from './locked-target.js';
import { confirmed, messages, publishable, rolloutFields, rolloutOf } from './state-rules.js';
import type { TargetPatch, TargetRecord } from './store-types.js';
import { publishLocked } from './transitions.js';
import type { FlagEnvironment, PublishInput, RolloutConfig, TargetServiceDeps } from './types.js';

/**
 * Publishing a target now or at a time (specs/management.yaml, publishTarget), with or without
 * a rollout, under the flag's target lock (concurrent publishes of one flag and environment
 * apply one after another).
 */
export class TargetPublishService {
  constructor(private readonly deps: TargetServiceDeps) {}

  async publish(
    _principal: ManagementPrincipal,
    ctx: FlagEnvironment,
    targetUlid: string,
    input: PublishInput,
    audit: Auditor,
  ): Promise<TargetRecord> {
    audit.describe(readSubject(ctx, 'target.published', targetUlid));
    const { store } = this.deps;
    const now = this.deps.clock.now();
    const errors = new FieldErrorList();
    const scheduledAt = scheduledTime(errors, input.scheduled_at, now);
    const requested = requestedRollout(errors, input);
    const stepMs = this.deps.rolloutStepMs;

    return withLockedTarget(this.deps, ctx, targetUlid, async (trx, target, env) => {
      // A copy: the transaction may run again after a deadlock.
      const fieldErrors = errors.copy();
      const comment = input.comment !== undefined ? input.comment : target.comment;
      if (env.comments_required && (comment === null || comment.trim() === '')) {
        fieldErrors.add('comment', 'The comment field is required: this environment requires a comment to publish.', 'comment_required');
      }
      fieldErrors.check();
      confirmed(ctx, env, input, messages.confirmation);
      if (!publishable.includes(target.status)) throw new UnprocessableError(messages.notPublishable(target.status));

      const rollout = requested === undefined ? rolloutOf(target) : requested;

      if (scheduledAt !== null) {
        const patch: TargetPatch = {
          status: 'scheduled',
          scheduled_at: scheduledAt,
          comment,
          rollout_mode: rollout?.mode ?? null,
          rollout_percentage: rollout?.percentage ?? null,
          rollout_status: rollout ? 'active' : null,
          rollout_step_started_at: null,
          updated_at: now.toISOString(),
        };
        if (!(await store.updateIf(trx, target.ulid, { status: publishable }, patch))) {
          throw new UnprocessableError(messages.notPublishable((await reload(store, trx, target)).status));
        }
        const scheduled = await reload(store, trx, target);
        await audit.commit(trx, changeSubject(ctx, 'target.scheduled', target.ulid, { before: target, after: scheduled, comment }, stepMs));
        return scheduled;
      }

      const published = await publishLocked(store, trx, target, { comment, rollout, from: publishable, now });
      await audit.commit(trx, changeSubject(ctx, 'target.published', target.ulid, { before: target, after: published, comment }, stepMs));
      return published;
    });
  }
}

/** The publish time asked for, when in the future; null: now. */
function scheduledTime(errors: FieldErrorList, requested: string | null | undefined, now: Date): string | null {
  if (requested === undefined || requested === null) return null;
  const when = new Date(requested);
  if (Number.isNaN(when.getTime())) errors.add('scheduled_at', 'The scheduled_at field must be a date-time.');
  else if (when.getTime() <= now.getTime()) {
    errors.add('scheduled_at', 'The scheduled_at field must be a date-time in the future.', 'date_not_in_future');
  } else return when.toISOString();
  return null;
}

/** The rollout asked for. undefined: keep the draft's rollout configuration; null: none. */
function requestedRollout(errors: FieldErrorList, input: PublishInput): RolloutConfig | null | undefined {
  if (input.rollout_enabled === true) return rolloutFields(errors, input.rollout_mode, input.rollout_percentage) ?? null;
  if (input.rollout_mode !== undefined) {
    errors.add('rollout_mode', 'The rollout_mode field is prohibited unless rollout_enabled is true.', 'invalid_combination');
  }
  if (input.rollout_percentage !== undefined) {
    errors.add('rollout_percentage', 'The rollout_percentage field is prohibited unless rollout_enabled is true.', 'invalid_combination');
  }
  return input.rollout_enabled === false ? null : undefined;
}
