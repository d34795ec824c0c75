import { FieldErrorList, NotFoundError, UnprocessableError, ValidationError } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { checkSplit, toSplitRecord } from '../shared/splits.js';
import { changeSubject, reloadAndAudit } from './audit-subject.js';
import { lockEnvironment, reload, withLockedTarget } from './locked-target.js';
import { editable, messages, publishable } from './state-rules.js';
import type { TargetPatch, TargetRecord } from './store-types.js';
import type { AuditCommit, FlagEnvironment, TargetServiceDeps, TargetUpdateInput } from './types.js';

/**
 * Targets and their drafts (specs/management.yaml, tag Targets): list, read, create (a copy of
 * the serving target), change and delete. Every change runs in one transaction that first takes
 * the environment's lock; updates are conditional on the state read.
 */
export class TargetDraftService {
  constructor(private readonly deps: TargetServiceDeps) {}

  list(ctx: FlagEnvironment): Promise<TargetRecord[]> {
    return this.deps.store.list(ctx.flag.ulid, ctx.environment.ulid);
  }

  async get(ctx: FlagEnvironment, targetUlid: string): Promise<TargetRecord> {
    const target = await this.deps.store.find(ctx.flag.ulid, ctx.environment.ulid, targetUlid);
    if (!target) throw new NotFoundError(messages.notFound);
    return target;
  }

  /** A new draft copying the serving published target (value, rules, criteria; not its rollout). */
  async create(ctx: FlagEnvironment, audit: AuditCommit): Promise<{ target: TargetRecord; cloned: boolean }> {
    return this.deps.store.transaction(async (tx) => {
      await lockEnvironment(tx, ctx);
      const serving = (await tx.listPublished(ctx.flag.ulid, ctx.environment.ulid))[0];
      const valueUlid = serving?.value_ulid ?? (await tx.defaultValueUlid(ctx.flag.ulid));
      if (valueUlid === undefined) throw new UnprocessableError(messages.noValues);
      const now = this.deps.clock.now().toISOString();
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
      const created = serving ? await reload(tx, target) : target;
      const action = serving ? 'target.cloned' : 'target.created';
      await audit(tx.trx, changeSubject(ctx, action, created.ulid, { after: created }, this.deps.rolloutStepMs));
      return { target: created, cloned: serving !== undefined };
    });
  }

  async update(ctx: FlagEnvironment, targetUlid: string, input: TargetUpdateInput, audit: AuditCommit): Promise<TargetRecord> {
    if (input.value_ulid === undefined && input.comment === undefined && input.split === undefined) {
      throw ValidationError.field('body', 'At least one of value_ulid, split and comment is required.');
    }
    return withLockedTarget(this.deps.store, ctx, targetUlid, async (tx, target) => {
      if (target.status !== 'draft') throw new UnprocessableError(messages.notDraft(target.status));
      const errors = new FieldErrorList();
      if (input.value_ulid !== undefined && !(await tx.valueBelongsToFlag(input.value_ulid, ctx.flag.ulid))) {
        errors.add('value_ulid', 'The value_ulid field must be the ulid of a value of this flag.', 'reference_not_found');
      }
      const split = input.split;
      if (split) await checkSplit(split, ctx.flag.key, (ulid) => tx.valueBelongsToFlag(ulid, ctx.flag.ulid), errors);
      errors.check();
      const patch: TargetPatch = { updated_at: this.deps.clock.now().toISOString() };
      if (input.value_ulid !== undefined) patch.value_ulid = input.value_ulid;
      if (split !== undefined) patch.split = split === null ? null : toSplitRecord(split);
      if (input.comment !== undefined) patch.comment = input.comment;
      if (!(await tx.updateIf(target.ulid, { status: editable }, patch))) {
        throw new UnprocessableError(messages.notDraft((await reload(tx, target)).status));
      }
      return reloadAndAudit(tx, ctx, 'target.updated', target, audit, this.deps.rolloutStepMs);
    });
  }

  async remove(ctx: FlagEnvironment, targetUlid: string, audit: AuditCommit): Promise<void> {
    await withLockedTarget(this.deps.store, ctx, targetUlid, async (tx, target) => {
      if (!publishable.includes(target.status)) throw new UnprocessableError(messages.notDeletable(target.status));
      if (!(await tx.deleteIf(target.ulid, { status: publishable }))) {
        throw new UnprocessableError(messages.notDeletable((await reload(tx, target)).status));
      }
      await audit(tx.trx, changeSubject(ctx, 'target.deleted', target.ulid, { before: target }, this.deps.rolloutStepMs));
    });
  }
}
