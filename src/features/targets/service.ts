import type { AuditSubject } from '../../audit/audit-trail.js';
import type { Clock } from '../../clock.js';
import { FieldErrorList, NotFoundError, UnprocessableError, ValidationError } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { checkSplit, toSplitRecord, type SplitInput } from '../shared/splits.js';
import type { Auditor } from '../shared/transactions.js';
import { automaticSteps, nextAutomaticStep, stepIsDue } from './rollout-steps.js';
import { targetView } from './view.js';
import type { RolloutMode, TargetPatch, TargetRecord, TargetScope, TargetStatus, TargetStore, TargetTransaction } from './store-types.js';

/** The Auditor's commit alone (request.audit.commit, or a system writer's), so system jobs can pass theirs. */
export type AuditCommit = Auditor['commit'];

/** The flag and environment of a `/projects/{p}/flags/{f}/environments/{e}` path, already resolved. */
export interface FlagEnvironment {
  project: { ulid: string; key: string };
  flag: { ulid: string; key: string };
  environment: { ulid: string; key: string };
}

export interface TargetUpdateInput {
  value_ulid?: string;
  /** Absent: kept; null: removed. */
  split?: SplitInput | null;
  comment?: string | null;
}

/**
 * How a change in a `confirmation_required` environment is confirmed: only a console session
 * may, by typing the environment's key. Absent: a Bearer token (refused there).
 */
export interface Confirmation {
  /** Typed confirmation: the environment's key, typed by a person in the console. */
  confirmation?: string;
  /** The request comes from a console session (the only kind that may confirm by typing). */
  console?: boolean;
}

export interface PublishInput extends Confirmation {
  comment?: string | null;
  scheduled_at?: string | null;
  rollout_enabled?: boolean;
  rollout_mode?: RolloutMode;
  rollout_percentage?: number;
}

export interface RolloutCreateInput extends Confirmation {
  rollout_mode: RolloutMode;
  rollout_percentage?: number;
}

export interface RolloutUpdateInput extends Confirmation {
  action?: 'pause' | 'resume';
  rollout_percentage?: number;
}

/** Outcome of a background (system) action on one target. */
export type SystemOutcome =
  | { kind: 'done'; action: string; target: TargetRecord }
  | { kind: 'skipped' }
  | { kind: 'refused'; message: string };

interface RolloutConfig {
  mode: RolloutMode;
  percentage: number;
}

const editable: readonly TargetStatus[] = ['draft'];
const publishable: readonly TargetStatus[] = ['draft', 'scheduled'];

const messages = {
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

function inProgress(t: TargetRecord): boolean {
  return t.rollout_mode !== null && (t.rollout_status === 'active' || t.rollout_status === 'paused');
}

/**
 * Publishing (rollout changes included) where the environment requires typed
 * confirmation is refused for every token; a person in the console confirms
 * by typing the environment's key.
 */
function confirmed(ctx: FlagEnvironment, env: { confirmation_required: boolean }, by: Confirmation, refusal: string): void {
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
function rolloutFields(errors: FieldErrorList, mode: RolloutMode | undefined, percentage: number | undefined): RolloutConfig | undefined {
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

/** A target change as the audit log and webhooks record it: API forms, and the publish comment. */
interface TargetChanges {
  before?: TargetRecord;
  after?: TargetRecord;
  comment?: string | null;
}

function recordedChanges(changes: TargetChanges, view: (t: TargetRecord) => unknown) {
  return {
    ...(changes.before ? { before: view(changes.before) } : {}),
    ...(changes.after ? { after: view(changes.after) } : {}),
    ...(changes.comment !== undefined ? { comment: changes.comment } : {}),
  };
}

/**
 * Targets, publishing and rollouts (specs/management.yaml, tags Targets and Rollouts). Every change runs
 * in one transaction that first takes the environment's lock, so concurrent publishes of the same
 * flag and environment are applied one after another; updates are conditional on the state read.
 */
export class TargetService {
  constructor(
    private readonly store: TargetStore,
    private readonly clock: Clock,
    /** The interval between automatic rollout steps (VEXIL_ROLLOUT_STEP_MS): the scheduler's and the view's. */
    readonly rolloutStepMs: number,
  ) {}

  /** A target as the API shows it (and the audit log records it). */
  view(t: TargetRecord) {
    return targetView(t, this.rolloutStepMs);
  }

  private subject(ctx: FlagEnvironment, action: string, targetUlid?: string, changes?: TargetChanges): AuditSubject {
    return {
      ...(changes ? { changes: recordedChanges(changes, (t) => this.view(t)) } : {}),
      action,
      subjectType: 'target',
      subjectUlid: targetUlid,
      subjectLabel: `${ctx.flag.key}/${ctx.environment.key}`,
      projectUlid: ctx.project.ulid,
      environmentUlid: ctx.environment.ulid,
    };
  }

  /** The audit subject of a read. */
  readSubject(ctx: FlagEnvironment, action: string, targetUlid?: string): AuditSubject {
    if (targetUlid === undefined) {
      return {
        action,
        subjectType: 'flag',
        subjectUlid: ctx.flag.ulid,
        subjectLabel: ctx.flag.key,
        projectUlid: ctx.project.ulid,
        environmentUlid: ctx.environment.ulid,
      };
    }
    return this.subject(ctx, action, targetUlid);
  }

  list(ctx: FlagEnvironment): Promise<TargetRecord[]> {
    return this.store.list(ctx.flag.ulid, ctx.environment.ulid);
  }

  async get(ctx: FlagEnvironment, targetUlid: string): Promise<TargetRecord> {
    const target = await this.store.find(ctx.flag.ulid, ctx.environment.ulid, targetUlid);
    if (!target) throw new NotFoundError(messages.notFound);
    return target;
  }

  /** Opens the transaction, takes the environment lock and loads the target (404 when absent). */
  private async locked<T>(
    ctx: FlagEnvironment,
    targetUlid: string,
    work: (tx: TargetTransaction, target: TargetRecord, env: { comments_required: boolean; confirmation_required: boolean }) => Promise<T>,
  ): Promise<T> {
    return this.store.transaction(async (tx) => {
      const env = await tx.lockEnvironment(ctx.environment.ulid);
      if (!env) throw new NotFoundError(`Environment "${ctx.environment.key}" not found.`);
      const target = await tx.find(ctx.flag.ulid, ctx.environment.ulid, targetUlid);
      if (!target) throw new NotFoundError(messages.notFound);
      return work(tx, target, env);
    });
  }

  private async reload(tx: TargetTransaction, target: TargetRecord): Promise<TargetRecord> {
    const fresh = await tx.find(target.flag_ulid, target.environment_ulid, target.ulid);
    if (!fresh) throw new NotFoundError(messages.notFound);
    return fresh;
  }

  /** A new draft copying the serving published target (value, rules, criteria; not its rollout). */
  async create(ctx: FlagEnvironment, audit: AuditCommit): Promise<{ target: TargetRecord; cloned: boolean }> {
    return this.store.transaction(async (tx) => {
      const env = await tx.lockEnvironment(ctx.environment.ulid);
      if (!env) throw new NotFoundError(`Environment "${ctx.environment.key}" not found.`);
      const serving = (await tx.listPublished(ctx.flag.ulid, ctx.environment.ulid))[0];
      const valueUlid = serving?.value_ulid ?? (await tx.defaultValueUlid(ctx.flag.ulid));
      if (valueUlid === undefined) throw new UnprocessableError(messages.noValues);
      const now = this.clock.now().toISOString();
      const target: TargetRecord = {
        ulid: newId('target'),
        flag_ulid: ctx.flag.ulid,
        environment_ulid: ctx.environment.ulid,
        value_ulid: valueUlid,
        status: 'draft',
        comment: null,
        scheduled_at: null,
        published_at: null,
        rollout_percentage: null,
        rollout_mode: null,
        rollout_status: null,
        rollout_step_started_at: null,
        created_at: now,
        updated_at: now,
      };
      await tx.insert(target);
      if (serving) await tx.copyRules(serving.ulid, target.ulid, now);
      // Reloaded: the copy brought the serving target's split along.
      const created = serving ? await this.reload(tx, target) : target;
      await audit(tx.trx, this.subject(ctx, serving ? 'target.cloned' : 'target.created', created.ulid, { after: created }));
      return { target: created, cloned: serving !== undefined };
    });
  }

  async update(ctx: FlagEnvironment, targetUlid: string, input: TargetUpdateInput, audit: AuditCommit): Promise<TargetRecord> {
    if (input.value_ulid === undefined && input.comment === undefined && input.split === undefined) {
      throw ValidationError.field('body', 'At least one of value_ulid, split and comment is required.');
    }
    return this.locked(ctx, targetUlid, async (tx, target) => {
      if (target.status !== 'draft') throw new UnprocessableError(messages.notDraft(target.status));
      const errors = new FieldErrorList();
      if (input.value_ulid !== undefined && !(await tx.valueBelongsToFlag(input.value_ulid, ctx.flag.ulid))) {
        errors.add('value_ulid', 'The value_ulid field must be the ulid of a value of this flag.', 'reference_not_found');
      }
      const split = input.split;
      if (split) await checkSplit(split, ctx.flag.key, (ulid) => tx.valueBelongsToFlag(ulid, ctx.flag.ulid), errors);
      errors.check();
      const patch: TargetPatch = { updated_at: this.clock.now().toISOString() };
      if (input.value_ulid !== undefined) patch.value_ulid = input.value_ulid;
      if (split !== undefined) patch.split = split === null ? null : toSplitRecord(split);
      if (input.comment !== undefined) patch.comment = input.comment;
      if (!(await tx.updateIf(target.ulid, { status: editable }, patch))) {
        throw new UnprocessableError(messages.notDraft((await this.reload(tx, target)).status));
      }
      const updated = await this.reload(tx, target);
      await audit(tx.trx, this.subject(ctx, 'target.updated', target.ulid, { before: target, after: updated }));
      return updated;
    });
  }

  async remove(ctx: FlagEnvironment, targetUlid: string, audit: AuditCommit): Promise<void> {
    await this.locked(ctx, targetUlid, async (tx, target) => {
      if (!publishable.includes(target.status)) throw new UnprocessableError(messages.notDeletable(target.status));
      if (!(await tx.deleteIf(target.ulid, { status: publishable }))) {
        throw new UnprocessableError(messages.notDeletable((await this.reload(tx, target)).status));
      }
      await audit(tx.trx, this.subject(ctx, 'target.deleted', target.ulid, { before: target }));
    });
  }

  async publish(ctx: FlagEnvironment, targetUlid: string, input: PublishInput, audit: AuditCommit): Promise<TargetRecord> {
    const now = this.clock.now();
    const errors = new FieldErrorList();
    let scheduledAt: string | null = null;
    if (input.scheduled_at !== undefined && input.scheduled_at !== null) {
      const when = new Date(input.scheduled_at);
      if (Number.isNaN(when.getTime())) errors.add('scheduled_at', 'The scheduled_at field must be a date-time.');
      else if (when.getTime() <= now.getTime()) {
        errors.add('scheduled_at', 'The scheduled_at field must be a date-time in the future.', 'date_not_in_future');
      } else scheduledAt = when.toISOString();
    }
    // undefined: keep the draft's rollout configuration; null: none.
    let requested: RolloutConfig | null | undefined;
    if (input.rollout_enabled === true) {
      requested = rolloutFields(errors, input.rollout_mode, input.rollout_percentage) ?? null;
    } else {
      if (input.rollout_mode !== undefined) {
        errors.add('rollout_mode', 'The rollout_mode field is prohibited unless rollout_enabled is true.', 'invalid_combination');
      }
      if (input.rollout_percentage !== undefined) {
        errors.add(
          'rollout_percentage',
          'The rollout_percentage field is prohibited unless rollout_enabled is true.',
          'invalid_combination',
        );
      }
      requested = input.rollout_enabled === false ? null : undefined;
    }

    return this.locked(ctx, targetUlid, async (tx, target, env) => {
      // A copy: the transaction may run again after a deadlock.
      const fieldErrors = errors.copy();
      const comment = input.comment !== undefined ? input.comment : target.comment;
      if (env.comments_required && (comment === null || comment.trim() === '')) {
        fieldErrors.add('comment', 'The comment field is required: this environment requires a comment to publish.', 'comment_required');
      }
      fieldErrors.check();
      confirmed(ctx, env, input, messages.confirmation);
      if (!publishable.includes(target.status)) throw new UnprocessableError(messages.notPublishable(target.status));

      const rollout =
        requested === undefined
          ? target.rollout_mode !== null && target.rollout_percentage !== null
            ? { mode: target.rollout_mode, percentage: target.rollout_percentage }
            : null
          : requested;
      const nowIso = now.toISOString();

      if (scheduledAt !== null) {
        const patch: TargetPatch = {
          status: 'scheduled',
          scheduled_at: scheduledAt,
          comment,
          rollout_mode: rollout?.mode ?? null,
          rollout_percentage: rollout?.percentage ?? null,
          rollout_status: rollout ? 'active' : null,
          rollout_step_started_at: null,
          updated_at: nowIso,
        };
        if (!(await tx.updateIf(target.ulid, { status: publishable }, patch))) {
          throw new UnprocessableError(messages.notPublishable((await this.reload(tx, target)).status));
        }
        const scheduled = await this.reload(tx, target);
        await audit(tx.trx, this.subject(ctx, 'target.scheduled', target.ulid, { before: target, after: scheduled, comment }));
        return scheduled;
      }

      const published = await this.publishLocked(tx, target, { comment, rollout, from: publishable, now });
      await audit(tx.trx, this.subject(ctx, 'target.published', target.ulid, { before: target, after: published, comment }));
      return published;
    });
  }

  /**
   * Publishes a target under the environment lock: sets it `published` (published_at strictly
   * after every earlier publish of the flag in the environment, so "newest" is never a tie),
   * expires the older published targets (all of them, or all but the newest while this target
   * rolls out), and bumps the environment's revision. Throws UnprocessableError when not allowed.
   */
  private async publishLocked(
    tx: TargetTransaction,
    target: TargetRecord,
    options: { comment: string | null; rollout: RolloutConfig | null; from: readonly TargetStatus[]; now: Date },
  ): Promise<TargetRecord> {
    const { rollout, now } = options;
    const nowIso = now.toISOString();
    const older = await tx.listPublished(target.flag_ulid, target.environment_ulid);
    if (rollout && older.some(inProgress)) throw new UnprocessableError(messages.rolloutInProgress);

    const latest = await tx.latestPublishedAt(target.flag_ulid, target.environment_ulid);
    const publishedAt = latest !== null && latest >= nowIso ? new Date(new Date(latest).getTime() + 1).toISOString() : nowIso;
    const patch: TargetPatch = {
      status: 'published',
      published_at: publishedAt,
      scheduled_at: null,
      comment: options.comment,
      rollout_mode: rollout?.mode ?? null,
      rollout_percentage: rollout?.percentage ?? null,
      rollout_status: rollout ? 'active' : null,
      rollout_step_started_at: rollout?.mode === 'automatic' ? nowIso : null,
      updated_at: nowIso,
    };
    if (!(await tx.updateIf(target.ulid, { status: options.from }, patch))) {
      throw new UnprocessableError(messages.notPublishable((await this.reload(tx, target)).status));
    }
    // While this target rolls out, the previously published one serves everyone outside it.
    const expiring = rollout ? older.slice(1) : older;
    await tx.expire(
      expiring.map((t) => t.ulid),
      nowIso,
    );
    await tx.bumpRevision(target.environment_ulid, target.flag_ulid);
    return this.reload(tx, target);
  }

  /** Expires the published targets older than `target` (it now serves everyone). */
  private async expireOlder(tx: TargetTransaction, target: TargetRecord, nowIso: string): Promise<void> {
    const published = await tx.listPublished(target.flag_ulid, target.environment_ulid);
    const index = published.findIndex((t) => t.ulid === target.ulid);
    const older = index === -1 ? [] : published.slice(index + 1);
    await tx.expire(
      older.map((t) => t.ulid),
      nowIso,
    );
  }

  async createRollout(ctx: FlagEnvironment, targetUlid: string, input: RolloutCreateInput, audit: AuditCommit): Promise<TargetRecord> {
    const errors = new FieldErrorList();
    const rollout = rolloutFields(errors, input.rollout_mode, input.rollout_percentage);
    errors.check();
    if (!rollout) throw new Error('rolloutFields gave no rollout and no error');
    return this.locked(ctx, targetUlid, async (tx, target, env) => {
      confirmed(ctx, env, input, messages.rolloutConfirmation);
      if (target.status !== 'draft') throw new UnprocessableError(messages.rolloutNotDraft(target.status));
      if (target.rollout_mode !== null) throw new UnprocessableError(messages.rolloutExists);
      const changed = await tx.updateIf(
        target.ulid,
        { status: editable, rollout_status: [null] },
        {
          rollout_mode: rollout.mode,
          rollout_percentage: rollout.percentage,
          rollout_status: 'active',
          rollout_step_started_at: null,
          updated_at: this.clock.now().toISOString(),
        },
      );
      if (!changed) throw new UnprocessableError(messages.rolloutExists);
      const after = await this.reload(tx, target);
      await audit(tx.trx, this.subject(ctx, 'target.rollout_initialized', target.ulid, { before: target, after }));
      return after;
    });
  }

  async updateRollout(ctx: FlagEnvironment, targetUlid: string, input: RolloutUpdateInput, audit: AuditCommit): Promise<TargetRecord> {
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
    return this.locked(ctx, targetUlid, async (tx, target, env) => {
      confirmed(ctx, env, input, messages.rolloutConfirmation);
      if (target.status !== 'published') throw new UnprocessableError(messages.notPublished);
      if (!inProgress(target)) throw new UnprocessableError(messages.noActiveRollout);
      const nowIso = this.clock.now().toISOString();
      let patch: TargetPatch;
      let expected: 'active' | 'paused';
      let servingChanges = false;
      if (input.action === 'pause') {
        if (target.rollout_status !== 'active') throw new UnprocessableError(messages.noActiveRollout);
        expected = 'active';
        patch = { rollout_status: 'paused', rollout_step_started_at: null, updated_at: nowIso };
      } else if (input.action === 'resume') {
        if (target.rollout_status !== 'paused') throw new UnprocessableError(messages.notPaused);
        expected = 'paused';
        // Resume restarts the interval at the current step.
        patch = {
          rollout_status: 'active',
          rollout_step_started_at: target.rollout_mode === 'automatic' ? nowIso : null,
          updated_at: nowIso,
        };
      } else {
        if (target.rollout_mode === 'automatic') {
          throw ValidationError.field(
            'rollout_percentage',
            'The rollout_percentage field cannot be set on an automatic rollout; it advances by itself.',
            'state_conflict',
          );
        }
        if (target.rollout_status !== 'active') throw new UnprocessableError(messages.noActiveRollout);
        expected = 'active';
        patch = { rollout_percentage: input.rollout_percentage as number, updated_at: nowIso };
        servingChanges = true;
      }
      if (!(await tx.updateIf(target.ulid, { status: ['published'], rollout_status: [expected] }, patch))) {
        throw new UnprocessableError(messages.noActiveRollout);
      }
      if (servingChanges) await tx.bumpRevision(target.environment_ulid, target.flag_ulid);
      const after = await this.reload(tx, target);
      await audit(tx.trx, this.subject(ctx, 'target.rollout_updated', target.ulid, { before: target, after }));
      return after;
    });
  }

  async deleteRollout(ctx: FlagEnvironment, targetUlid: string, audit: AuditCommit, by: Confirmation = {}): Promise<TargetRecord> {
    return this.locked(ctx, targetUlid, async (tx, target, env) => {
      confirmed(ctx, env, by, messages.rolloutConfirmation);
      if (target.status === 'expired') throw new UnprocessableError(messages.expired);
      if (target.rollout_mode === null) throw new UnprocessableError(messages.noRollout);
      const nowIso = this.clock.now().toISOString();
      const changed = await tx.updateIf(
        target.ulid,
        { status: [target.status] },
        { rollout_mode: null, rollout_percentage: null, rollout_status: null, rollout_step_started_at: null, updated_at: nowIso },
      );
      if (!changed) throw new UnprocessableError(messages.expired);
      if (target.status === 'published') {
        await this.expireOlder(tx, target, nowIso);
        await tx.bumpRevision(target.environment_ulid, target.flag_ulid);
      }
      const after = await this.reload(tx, target);
      await audit(tx.trx, this.subject(ctx, 'target.rollout_deleted', target.ulid, { before: target, after }));
      return after;
    });
  }

  async completeRollout(ctx: FlagEnvironment, targetUlid: string, audit: AuditCommit, by: Confirmation = {}): Promise<TargetRecord> {
    return this.locked(ctx, targetUlid, async (tx, target, env) => {
      confirmed(ctx, env, by, messages.rolloutConfirmation);
      if (target.status !== 'published') throw new UnprocessableError(messages.notPublished);
      if (target.rollout_mode === null) throw new UnprocessableError(messages.noRollout);
      if (target.rollout_status === 'completed') throw new UnprocessableError(messages.alreadyCompleted);
      const completed = await this.completeLocked(tx, target, this.clock.now().toISOString());
      await audit(tx.trx, this.subject(ctx, 'target.rollout_completed', target.ulid, { before: target, after: completed }));
      return completed;
    });
  }

  private async completeLocked(tx: TargetTransaction, target: TargetRecord, nowIso: string): Promise<TargetRecord> {
    const changed = await tx.updateIf(
      target.ulid,
      { status: ['published'], rollout_status: ['active', 'paused'] },
      { rollout_percentage: 100, rollout_status: 'completed', rollout_step_started_at: null, updated_at: nowIso },
    );
    if (!changed) throw new UnprocessableError(messages.alreadyCompleted);
    await this.expireOlder(tx, target, nowIso);
    await tx.bumpRevision(target.environment_ulid, target.flag_ulid);
    return this.reload(tx, target);
  }

  // ------------------------------------------------------------ system actions (no request)

  private scopeContext(scope: TargetScope): FlagEnvironment {
    return {
      project: { ulid: scope.projectUlid, key: scope.projectKey },
      flag: { ulid: scope.target.flag_ulid, key: scope.flagKey },
      environment: { ulid: scope.target.environment_ulid, key: scope.environmentKey },
    };
  }

  /**
   * Publishes a due scheduled target (the scheduler, audit actor `system`). Safe with many
   * instances: the environment lock and the conditional update let exactly one of them publish;
   * the others see the target no longer scheduled and skip it. The comment and confirmation
   * requirements were checked when it was scheduled; a rollout conflict refuses it (it stays
   * scheduled).
   */
  async publishScheduled(scope: TargetScope, audit: AuditCommit): Promise<SystemOutcome> {
    const ctx = this.scopeContext(scope);
    const now = this.clock.now();
    try {
      return await this.store.transaction(async (tx) => {
        if (!(await tx.lockEnvironment(ctx.environment.ulid))) return { kind: 'skipped' } as const;
        const target = await tx.find(ctx.flag.ulid, ctx.environment.ulid, scope.target.ulid);
        if (!target || target.status !== 'scheduled' || target.scheduled_at === null || target.scheduled_at > now.toISOString()) {
          return { kind: 'skipped' } as const;
        }
        const rollout =
          target.rollout_mode !== null && target.rollout_percentage !== null
            ? { mode: target.rollout_mode, percentage: target.rollout_percentage }
            : null;
        const published = await this.publishLocked(tx, target, { comment: target.comment, rollout, from: ['scheduled'], now });
        await audit(
          tx.trx,
          this.subject(ctx, 'target.published', target.ulid, { before: target, after: published, comment: target.comment }),
        );
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
  async advanceRollout(scope: TargetScope, audit: AuditCommit): Promise<SystemOutcome> {
    const ctx = this.scopeContext(scope);
    const now = this.clock.now();
    const nowIso = now.toISOString();
    return this.store.transaction(async (tx) => {
      if (!(await tx.lockEnvironment(ctx.environment.ulid))) return { kind: 'skipped' } as const;
      const target = await tx.find(ctx.flag.ulid, ctx.environment.ulid, scope.target.ulid);
      if (!target || !stepIsDue(target, this.rolloutStepMs, now)) return { kind: 'skipped' } as const;
      const next = nextAutomaticStep(target.rollout_percentage);
      if (next >= 100) {
        const completed = await this.completeLocked(tx, target, nowIso);
        await audit(tx.trx, this.subject(ctx, 'target.rollout_completed', target.ulid, { before: target, after: completed }));
        return { kind: 'done', action: 'target.rollout_completed', target: completed } as const;
      }
      const changed = await tx.updateIf(
        target.ulid,
        { status: ['published'], rollout_status: ['active'], rollout_step_started_at: target.rollout_step_started_at },
        { rollout_percentage: next, rollout_step_started_at: nowIso, updated_at: nowIso },
      );
      if (!changed) return { kind: 'skipped' } as const;
      await tx.bumpRevision(target.environment_ulid, target.flag_ulid);
      const after = await this.reload(tx, target);
      await audit(tx.trx, this.subject(ctx, 'target.rollout_updated', target.ulid, { before: target, after }));
      return { kind: 'done', action: 'target.rollout_updated', target: after } as const;
    });
  }
}
