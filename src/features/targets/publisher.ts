import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { AuditSubject } from '../../audit/audit-trail.js';
import type { TargetScheduledJobs } from './scheduled-jobs.js';
import type { TargetScope, TargetStore } from './store-types.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { SystemOutcome } from './types.js';

/** Where system audit entries go: the AuditWriter (writeSystem), or a recorder in tests. */
export interface SystemAuditSink {
  writeSystem(db: Knex | Knex.Transaction, subject: AuditSubject, result?: string): Promise<void>;
}

export interface PublisherRunResult {
  published: number;
  refused: number;
  advanced: number;
  completed: number;
}

/**
 * The background work of targets, for the scheduler (src/features/scheduler): publishes due
 * scheduled targets and advances automatic rollouts, with audit actor `system`. It needs no HTTP
 * request and is safe to run on every instance at once (each change is conditional on the state
 * it read, under the flag's target lock). Audit entries: actor `system`, no HTTP method, path or
 * status (AuditWriter.writeSystem), committed in the transaction of the change.
 */
export class TargetPublisher {
  constructor(
    private readonly jobs: TargetScheduledJobs,
    private readonly store: TargetStore,
    private readonly audit: SystemAuditSink,
    /** What the jobs are found on, and where audit entries of refused system actions go (in a transaction of their own). */
    private readonly db: Knex,
    /** The refusals' entries are written in transactions of their own. */
    private readonly tx: Transactor,
    private readonly clock: { now(): Date },
    private readonly logger?: Logger,
  ) {}

  private readonly systemAudit: Pick<Auditor, 'commit'> = { commit: (trx, subject) => this.audit.writeSystem(trx, subject) };

  /** Publishes every scheduled target whose time has come (at most `limit` per call). */
  async publishDueTargets(limit = 100): Promise<{ published: number; refused: number }> {
    const due = await this.store.dueScheduled(this.db, this.clock.now().toISOString(), limit);
    let published = 0;
    let refused = 0;
    for (const scope of due) {
      const outcome = await this.jobs.publishScheduled(scope, this.systemAudit);
      if (outcome.kind === 'done') published++;
      if (outcome.kind === 'refused') {
        refused++;
        await this.recordRefusal(scope, 'target.published', outcome);
      }
    }
    return { published, refused };
  }

  /** Advances every automatic rollout whose step interval has passed, one step each. */
  async advanceRollouts(limit = 100): Promise<{ advanced: number; completed: number }> {
    const before = new Date(this.clock.now().getTime() - this.jobs.rolloutStepMs).toISOString();
    const due = await this.store.dueRolloutSteps(this.db, before, limit);
    let advanced = 0;
    let completed = 0;
    for (const scope of due) {
      const outcome = await this.jobs.advanceRollout(scope, this.systemAudit);
      if (outcome.kind === 'done') {
        if (outcome.action === 'target.rollout_completed') completed++;
        else advanced++;
      }
    }
    return { advanced, completed };
  }

  /** One pass of both jobs. */
  async runOnce(): Promise<PublisherRunResult> {
    const a = await this.publishDueTargets();
    const b = await this.advanceRollouts();
    return { ...a, ...b };
  }

  /** A refused scheduled publish is audited once (not on every tick while it stays refused). */
  private async recordRefusal(scope: TargetScope, action: string, outcome: Extract<SystemOutcome, { kind: 'refused' }>): Promise<void> {
    this.logger?.warn({ target: scope.target.ulid, reason: outcome.message }, 'scheduled publish refused');
    const { target } = scope;
    // Under the target's row lock, the check and the entry are one step: two ticks or instances
    // refused at once write one entry.
    await this.tx.transaction(async (trx) => {
      await this.store.findLocked(trx, target.flag_ulid, target.environment_ulid, target.ulid);
      if (await this.store.lastSystemFailure(trx, target.ulid, action)) return;
      await this.audit.writeSystem(
        trx,
        {
          action,
          subjectType: 'target',
          subjectUlid: target.ulid,
          subjectLabel: `${scope.flagKey}/${scope.environmentKey}`,
          projectUlid: scope.projectUlid,
          environmentUlid: target.environment_ulid,
        },
        'invalid',
      );
    });
  }
}
