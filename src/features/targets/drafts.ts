import type { ManagementPrincipal } from '../../auth/principal.js';
import { FieldErrorList, NotFoundError, UnprocessableError, ValidationError } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { checkSplit, toSplitRecord } from '../shared/splits.js';
import type { Auditor } from '../shared/transactions.js';
import { changeSubject, readSubject, reloadAndAudit } from './audit-subject.js';
import { lockFlagTargets, reload, withLockedTarget } from './locked-target.js';
import { editable, messages, publishable } from './state-rules.js';
import type { TargetPatch, TargetRecord } from './store-types.js';
import type { FlagEnvironment, TargetServiceDeps, TargetUpdateInput } from './types.js';

/**
 * Targets and their drafts (specs/management.yaml, tag Targets): list, read, create (a copy of
 * the serving target), change and delete. Every change runs in one transaction that first takes
 * the flag's target lock; updates are conditional on the state read. The flag and environment
 * come resolved from the path, for the principal (`findFlagEnvironment`).
 */
export class TargetDraftService {
  constructor(private readonly deps: TargetServiceDeps) {}

  list(_principal: ManagementPrincipal, ctx: FlagEnvironment, audit: Pick<Auditor, 'describe'>): Promise<TargetRecord[]> {
    audit.describe(readSubject(ctx, 'target.listed'));
    return this.deps.store.list(this.deps.db, ctx.flag.ulid, ctx.environment.ulid);
  }

  async get(
    _principal: ManagementPrincipal,
    ctx: FlagEnvironment,
    targetUlid: string,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<TargetRecord> {
    audit.describe(readSubject(ctx, 'target.read', targetUlid));
    const target = await this.deps.store.find(this.deps.db, ctx.flag.ulid, ctx.environment.ulid, targetUlid);
    if (!target) throw new NotFoundError(messages.notFound);
    return target;
  }

  /** A new draft copying the serving published target (value, rules, criteria; not its rollout). */
  async create(_principal: ManagementPrincipal, ctx: FlagEnvironment, audit: Auditor): Promise<{ target: TargetRecord; cloned: boolean }> {
    audit.describe(readSubject(ctx, 'target.created'));
    const { store } = this.deps;
    return this.deps.tx.transaction(async (trx) => {
      await lockFlagTargets(store, trx, ctx);
      const serving = (await store.listPublished(trx, ctx.flag.ulid, ctx.environment.ulid))[0];
      const valueUlid = serving?.value_ulid ?? (await store.defaultValueUlid(trx, ctx.flag.ulid));
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
      await store.insert(trx, target);
      if (serving) await store.copyRules(trx, serving.ulid, target.ulid, now);
      // Reloaded: the copy brought the serving target's split along.
      const created = serving ? await reload(store, trx, target) : target;
      const action = serving ? 'target.cloned' : 'target.created';
      await audit.commit(trx, changeSubject(ctx, action, created.ulid, { after: created }, this.deps.rolloutStepMs));
      return { target: created, cloned: serving !== undefined };
    });
  }

  async update(
    _principal: ManagementPrincipal,
    ctx: FlagEnvironment,
    targetUlid: string,
    input: TargetUpdateInput,
    audit: Auditor,
  ): Promise<TargetRecord> {
    audit.describe(readSubject(ctx, 'target.updated', targetUlid));
    const { store } = this.deps;
    if (input.value_ulid === undefined && input.comment === undefined && input.split === undefined) {
      throw ValidationError.field('body', 'At least one of value_ulid, split and comment is required.');
    }
    return withLockedTarget(this.deps, ctx, targetUlid, async (trx, target) => {
      if (target.status !== 'draft') throw new UnprocessableError(messages.notDraft(target.status));
      const errors = new FieldErrorList();
      if (input.value_ulid !== undefined && !(await store.valueBelongsToFlag(trx, input.value_ulid, ctx.flag.ulid))) {
        errors.add('value_ulid', 'The value_ulid field must be the ulid of a value of this flag.', 'reference_not_found');
      }
      const split = input.split;
      if (split) await checkSplit(split, ctx.flag.key, (ulid) => store.valueBelongsToFlag(trx, ulid, ctx.flag.ulid), errors);
      errors.check();
      const patch: TargetPatch = { updated_at: this.deps.clock.now().toISOString() };
      if (input.value_ulid !== undefined) patch.value_ulid = input.value_ulid;
      if (split !== undefined) patch.split = split === null ? null : toSplitRecord(split);
      if (input.comment !== undefined) patch.comment = input.comment;
      if (!(await store.updateIf(trx, target.ulid, { status: editable }, patch))) {
        throw new UnprocessableError(messages.notDraft((await reload(store, trx, target)).status));
      }
      return reloadAndAudit(store, trx, ctx, 'target.updated', target, audit, this.deps.rolloutStepMs);
    });
  }

  async remove(_principal: ManagementPrincipal, ctx: FlagEnvironment, targetUlid: string, audit: Auditor): Promise<void> {
    audit.describe(readSubject(ctx, 'target.deleted', targetUlid));
    const { store } = this.deps;
    await withLockedTarget(this.deps, ctx, targetUlid, async (trx, target) => {
      if (!publishable.includes(target.status)) throw new UnprocessableError(messages.notDeletable(target.status));
      if (!(await store.deleteIf(trx, target.ulid, { status: publishable }))) {
        throw new UnprocessableError(messages.notDeletable((await reload(store, trx, target)).status));
      }
      await audit.commit(trx, changeSubject(ctx, 'target.deleted', target.ulid, { before: target }, this.deps.rolloutStepMs));
    });
  }
}
