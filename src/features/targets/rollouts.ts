import type { ManagementPrincipal } from '../../auth/principal.js';
import { FieldErrorList, UnprocessableError, ValidationError } from '../../http/errors.js';
import type { Auditor } from '../shared/transactions.js';
import { changeSubject, readSubject, reloadAndAudit } from './audit-subject.js';
import { withLockedTarget } from './locked-target.js';
import { confirmed, editable, inProgress, messages, rolloutFields } from './state-rules.js';
import type { TargetPatch, TargetRecord } from './store-types.js';
import { completeLocked, expireOlder } from './transitions.js';
import type { Confirmation, FlagEnvironment, RolloutCreateInput, RolloutUpdateInput, TargetServiceDeps } from './types.js';

/**
 * A target's rollout (specs/management.yaml, tag Rollouts): configured on a draft, then paused,
 * resumed, moved, completed or deleted once published. Each change runs under the environment's
 * lock and is conditional on the rollout state read.
 */
export class RolloutService {
  constructor(private readonly deps: TargetServiceDeps) {}

  async create(
    _principal: ManagementPrincipal,
    ctx: FlagEnvironment,
    targetUlid: string,
    input: RolloutCreateInput,
    audit: Auditor,
  ): Promise<TargetRecord> {
    audit.describe(readSubject(ctx, 'target.rollout_initialized', targetUlid));
    const { store } = this.deps;
    const errors = new FieldErrorList();
    const rollout = rolloutFields(errors, input.rollout_mode, input.rollout_percentage);
    errors.check();
    if (!rollout) throw new Error('rolloutFields gave no rollout and no error');
    return withLockedTarget(this.deps, ctx, targetUlid, async (trx, target, env) => {
      confirmed(ctx, env, input, messages.rolloutConfirmation);
      if (target.status !== 'draft') throw new UnprocessableError(messages.rolloutNotDraft(target.status));
      if (target.rollout_mode !== null) throw new UnprocessableError(messages.rolloutExists);
      const changed = await store.updateIf(
        trx,
        target.ulid,
        { status: editable, rollout_status: [null] },
        {
          rollout_mode: rollout.mode,
          rollout_percentage: rollout.percentage,
          rollout_status: 'active',
          rollout_step_started_at: null,
          updated_at: this.deps.clock.now().toISOString(),
        },
      );
      if (!changed) throw new UnprocessableError(messages.rolloutExists);
      return reloadAndAudit(store, trx, ctx, 'target.rollout_initialized', target, audit, this.deps.rolloutStepMs);
    });
  }

  async update(
    _principal: ManagementPrincipal,
    ctx: FlagEnvironment,
    targetUlid: string,
    input: RolloutUpdateInput,
    audit: Auditor,
  ): Promise<TargetRecord> {
    audit.describe(readSubject(ctx, 'target.rollout_updated', targetUlid));
    const { store } = this.deps;
    const hasAction = input.action !== undefined;
    const hasPercentage = input.rollout_percentage !== undefined;
    if (hasAction === hasPercentage) {
      const message = hasAction
        ? 'Send either action or rollout_percentage, not both.'
        : 'One of action and rollout_percentage is required.';
      throw ValidationError.field('body', message, 'invalid_combination');
    }
    if (hasPercentage) {
      const p = input.rollout_percentage as number;
      if (!Number.isInteger(p) || p < 1 || p > 100) {
        throw ValidationError.field('rollout_percentage', 'The rollout_percentage field must be an integer from 1 to 100.');
      }
    }
    return withLockedTarget(this.deps, ctx, targetUlid, async (trx, target, env) => {
      confirmed(ctx, env, input, messages.rolloutConfirmation);
      if (target.status !== 'published') throw new UnprocessableError(messages.notPublished);
      if (!inProgress(target)) throw new UnprocessableError(messages.noActiveRollout);
      const { expected, patch, servingChanges } = rolloutUpdate(target, input, this.deps.clock.now().toISOString());
      if (!(await store.updateIf(trx, target.ulid, { status: ['published'], rollout_status: [expected] }, patch))) {
        throw new UnprocessableError(messages.noActiveRollout);
      }
      if (servingChanges) await store.bumpRevision(trx, target.environment_ulid, target.flag_ulid);
      return reloadAndAudit(store, trx, ctx, 'target.rollout_updated', target, audit, this.deps.rolloutStepMs);
    });
  }

  async delete(
    _principal: ManagementPrincipal,
    ctx: FlagEnvironment,
    targetUlid: string,
    by: Confirmation,
    audit: Auditor,
  ): Promise<TargetRecord> {
    audit.describe(readSubject(ctx, 'target.rollout_deleted', targetUlid));
    const { store } = this.deps;
    return withLockedTarget(this.deps, ctx, targetUlid, async (trx, target, env) => {
      confirmed(ctx, env, by, messages.rolloutConfirmation);
      if (target.status === 'expired') throw new UnprocessableError(messages.expired);
      if (target.rollout_mode === null) throw new UnprocessableError(messages.noRollout);
      const nowIso = this.deps.clock.now().toISOString();
      const changed = await store.updateIf(
        trx,
        target.ulid,
        { status: [target.status] },
        { rollout_mode: null, rollout_percentage: null, rollout_status: null, rollout_step_started_at: null, updated_at: nowIso },
      );
      if (!changed) throw new UnprocessableError(messages.expired);
      if (target.status === 'published') {
        await expireOlder(store, trx, target, nowIso);
        await store.bumpRevision(trx, target.environment_ulid, target.flag_ulid);
      }
      return reloadAndAudit(store, trx, ctx, 'target.rollout_deleted', target, audit, this.deps.rolloutStepMs);
    });
  }

  async complete(
    _principal: ManagementPrincipal,
    ctx: FlagEnvironment,
    targetUlid: string,
    by: Confirmation,
    audit: Auditor,
  ): Promise<TargetRecord> {
    audit.describe(readSubject(ctx, 'target.rollout_completed', targetUlid));
    const { store } = this.deps;
    return withLockedTarget(this.deps, ctx, targetUlid, async (trx, target, env) => {
      confirmed(ctx, env, by, messages.rolloutConfirmation);
      if (target.status !== 'published') throw new UnprocessableError(messages.notPublished);
      if (target.rollout_mode === null) throw new UnprocessableError(messages.noRollout);
      if (target.rollout_status === 'completed') throw new UnprocessableError(messages.alreadyCompleted);
      const completed = await completeLocked(store, trx, target, this.deps.clock.now().toISOString());
      const changes = { before: target, after: completed };
      await audit.commit(trx, changeSubject(ctx, 'target.rollout_completed', target.ulid, changes, this.deps.rolloutStepMs));
      return completed;
    });
  }
}

/** The change a rollout update makes (pause, resume or a manual percentage), and the state it expects. */
function rolloutUpdate(
  target: TargetRecord,
  input: RolloutUpdateInput,
  nowIso: string,
): { expected: 'active' | 'paused'; patch: TargetPatch; servingChanges: boolean } {
  if (input.action === 'pause') {
    if (target.rollout_status !== 'active') throw new UnprocessableError(messages.noActiveRollout);
    return {
      expected: 'active',
      patch: { rollout_status: 'paused', rollout_step_started_at: null, updated_at: nowIso },
      servingChanges: false,
    };
  }
  if (input.action === 'resume') {
    if (target.rollout_status !== 'paused') throw new UnprocessableError(messages.notPaused);
    // Resume restarts the interval at the current step.
    const patch: TargetPatch = {
      rollout_status: 'active',
      rollout_step_started_at: target.rollout_mode === 'automatic' ? nowIso : null,
      updated_at: nowIso,
    };
    return { expected: 'paused', patch, servingChanges: false };
  }
  if (target.rollout_mode === 'automatic') {
    throw ValidationError.field(
      'rollout_percentage',
      'The rollout_percentage field cannot be set on an automatic rollout; it advances by itself.',
      'state_conflict',
    );
  }
  if (target.rollout_status !== 'active') throw new UnprocessableError(messages.noActiveRollout);
  return {
    expected: 'active',
    patch: { rollout_percentage: input.rollout_percentage as number, updated_at: nowIso },
    servingChanges: true,
  };
}
