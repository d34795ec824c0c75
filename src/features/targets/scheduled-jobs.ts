import { UnprocessableError } from '../../http/errors.js';
import type { Auditor } from '../shared/transactions.js';
import { changeSubject, reloadAndAudit } from './audit-subject.js';
import { nextAutomaticStep, stepIsDue } from './rollout-steps.js';
import { rolloutOf } from './state-rules.js';
import type { TargetScope } from './store-types.js';
import { completeLocked, publishLocked } from './transitions.js';
import type { FlagEnvironment, SystemOutcome, TargetServiceDeps } from './types.js';

/**
 * The scheduler's work on one target (audit actor `system`, no request): publishing a due
 * scheduled target and taking an automatic rollout's next step. Each is conditional on the state
 * it reads under the flag's target lock, so it is safe on every instance at once. No principal:
 * the Auditor is the system writer's.
 */
export class TargetScheduledJobs {
  constructor(private readonly deps: TargetServiceDeps) {}

  /** The interval between automatic rollout steps. */
  get rolloutStepMs(): number {
    return this.deps.rolloutStepMs;
  }

  /**
   * Publishes a due scheduled target. Exactly one instance publishes it; the others see it no
   * longer scheduled and skip it. The comment and confirmation requirements were checked when it
   * was scheduled; a rollout conflict refuses it (it stays scheduled).
   */
  async publishScheduled(scope: TargetScope, audit: Pick<Auditor, 'commit'>): Promise<SystemOutcome> {
    const ctx = scopeContext(scope);
    const now = this.deps.clock.now();
    const { store } = this.deps;
    try {
      return await this.deps.tx.transaction(async (trx) => {
        if (!(await store.lockFlagTargets(trx, ctx.flag.ulid, ctx.environment.ulid))) return { kind: 'skipped' } as const;
        const target = await store.findLocked(trx, ctx.flag.ulid, ctx.environment.ulid, scope.target.ulid);
        if (!target || target.status !== 'scheduled' || target.scheduled_at === null || target.scheduled_at > now.toISOString()) {
          return { kind: 'skipped' } as const;
        }
        const published = await publishLocked(store, trx, target, {
          comment: target.comment,
          rollout: rolloutOf(target),
          from: ['scheduled'],
          now,
        });
        const changes = { before: target, after: published, comment: target.comment };
        await audit.commit(trx, changeSubject(ctx, 'target.published', target.ulid, changes, this.deps.rolloutStepMs));
        return { kind: 'done', action: 'target.published', target: published } as const;
      });
    } catch (error) {
      if (error instanceof UnprocessableError) return { kind: 'refused', message: error.message };
      throw error;
    }
  }

  /**
   * Advances an automatic rollout by one step when its interval has passed (1, 5, 10, 25, 50,
   * 100 %); reaching 100 completes it and expires the older published targets. Conditional on the
   * step clock, so two instances cannot both advance the same step.
   */
  async advanceRollout(scope: TargetScope, audit: Pick<Auditor, 'commit'>): Promise<SystemOutcome> {
    const ctx = scopeContext(scope);
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const stepMs = this.deps.rolloutStepMs;
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      if (!(await store.lockFlagTargets(trx, ctx.flag.ulid, ctx.environment.ulid))) return { kind: 'skipped' } as const;
      const target = await store.findLocked(trx, ctx.flag.ulid, ctx.environment.ulid, scope.target.ulid);
      if (!target || !stepIsDue(target, stepMs, now)) return { kind: 'skipped' } as const;
      const next = nextAutomaticStep(target.rollout_percentage);
      if (next >= 100) {
        const completed = await completeLocked(store, trx, target, nowIso);
        await audit.commit(trx, changeSubject(ctx, 'target.rollout_completed', target.ulid, { before: target, after: completed }, stepMs));
        return { kind: 'done', action: 'target.rollout_completed', target: completed } as const;
      }
      const changed = await store.updateIf(
        trx,
        target.ulid,
        { status: ['published'], rollout_status: ['active'], rollout_step_started_at: target.rollout_step_started_at },
        { rollout_percentage: next, rollout_step_started_at: nowIso, updated_at: nowIso },
      );
      if (!changed) return { kind: 'skipped' } as const;
      await store.bumpRevision(trx, target.environment_ulid, target.flag_ulid);
      const after = await reloadAndAudit(store, trx, ctx, 'target.rollout_updated', target, audit, stepMs);
      return { kind: 'done', action: 'target.rollout_updated', target: after } as const;
    });
  }
}

function scopeContext(scope: TargetScope): FlagEnvironment {
  return {
    project: { ulid: scope.projectUlid, key: scope.projectKey },
    flag: { ulid: scope.target.flag_ulid, key: scope.flagKey },
    environment: { ulid: scope.target.environment_ulid, key: scope.environmentKey },
  };
}
