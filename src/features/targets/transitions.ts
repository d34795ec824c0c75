import type { Knex } from 'knex';
import { UnprocessableError } from '../../http/errors.js';
import { reload } from './locked-target.js';
import { inProgress, messages } from './state-rules.js';
import type { TargetPatch, TargetRecord, TargetStatus, TargetStore } from './store-types.js';
import type { RolloutConfig } from './types.js';

/**
 * The state changes a request and the scheduler share, run under the flag's target lock:
 * publishing a target and completing its rollout.
 */

/**
 * Publishes a target: sets it `published` (published_at strictly after every earlier publish of
 * the flag in the environment, so "newest" is never a tie), expires the older published targets
 * (all of them, or all but the newest while this target rolls out), and bumps the environment's
 * revision. Throws UnprocessableError when not allowed.
 */
export async function publishLocked(
  store: TargetStore,
  trx: Knex.Transaction,
  target: TargetRecord,
  options: { comment: string | null; rollout: RolloutConfig | null; from: readonly TargetStatus[]; now: Date },
): Promise<TargetRecord> {
  const { rollout, now } = options;
  const nowIso = now.toISOString();
  const older = await store.listPublished(trx, target.flag_ulid, target.environment_ulid);
  if (rollout && older.some(inProgress)) throw new UnprocessableError(messages.rolloutInProgress);

  const latest = await store.latestPublishedAt(trx, target.flag_ulid, target.environment_ulid);
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
  if (!(await store.updateIf(trx, target.ulid, { status: options.from }, patch))) {
    throw new UnprocessableError(messages.notPublishable((await reload(store, trx, target)).status));
  }
  // While this target rolls out, the previously published one serves everyone outside it.
  const expiring = rollout ? older.slice(1) : older;
  await store.expire(
    trx,
    expiring.map((t) => t.ulid),
    nowIso,
  );
  await store.bumpRevision(trx, target.environment_ulid, target.flag_ulid);
  return reload(store, trx, target);
}

/** Expires the published targets older than `target` (it now serves everyone). */
export async function expireOlder(store: TargetStore, trx: Knex.Transaction, target: TargetRecord, nowIso: string): Promise<void> {
  const published = await store.listPublished(trx, target.flag_ulid, target.environment_ulid);
  const index = published.findIndex((t) => t.ulid === target.ulid);
  const older = index === -1 ? [] : published.slice(index + 1);
  await store.expire(
    trx,
    older.map((t) => t.ulid),
    nowIso,
  );
}

/** Completes a published target's rollout (100 %) and expires the older published targets. */
export async function completeLocked(
  store: TargetStore,
  trx: Knex.Transaction,
  target: TargetRecord,
  nowIso: string,
): Promise<TargetRecord> {
  const changed = await store.updateIf(
    trx,
    target.ulid,
    { status: ['published'], rollout_status: ['active', 'paused'] },
    { rollout_percentage: 100, rollout_status: 'completed', rollout_step_started_at: null, updated_at: nowIso },
  );
  if (!changed) throw new UnprocessableError(messages.alreadyCompleted);
  await expireOlder(store, trx, target, nowIso);
  await store.bumpRevision(trx, target.environment_ulid, target.flag_ulid);
  return reload(store, trx, target);
}
