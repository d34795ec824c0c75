import type { Knex } from 'knex';
import { NotFoundError } from '../../http/errors.js';
import { messages } from './state-rules.js';
import type { LockedEnvironment, TargetRecord, TargetStore } from './store-types.js';
import type { FlagEnvironment, TargetServiceDeps } from './types.js';

/**
 * Runs `work` in one transaction (deps.tx) that first takes the flag's target lock and loads the
 * target (404 when either is absent), so concurrent changes of one flag's targets apply one after
 * another.
 */
export function withLockedTarget<T>(
  deps: Pick<TargetServiceDeps, 'tx' | 'store'>,
  ctx: FlagEnvironment,
  targetUlid: string,
  work: (trx: Knex.Transaction, target: TargetRecord, env: LockedEnvironment) => Promise<T>,
): Promise<T> {
  return deps.tx.transaction(async (trx) => {
    const env = await lockFlagTargets(deps.store, trx, ctx);
    const target = await deps.store.findLocked(trx, ctx.flag.ulid, ctx.environment.ulid, targetUlid);
    if (!target) throw new NotFoundError(messages.notFound);
    return work(trx, target, env);
  });
}

/** Takes the flag's target lock first in a transaction (404 when the environment is gone). */
export async function lockFlagTargets(store: TargetStore, trx: Knex.Transaction, ctx: FlagEnvironment): Promise<LockedEnvironment> {
  const env = await store.lockFlagTargets(trx, ctx.flag.ulid, ctx.environment.ulid);
  if (!env) throw new NotFoundError(`Environment "${ctx.environment.key}" not found.`);
  return env;
}

/** The target as it is now in the transaction (after a conditional update). */
export async function reload(store: TargetStore, trx: Knex.Transaction, target: TargetRecord): Promise<TargetRecord> {
  const fresh = await store.findLocked(trx, target.flag_ulid, target.environment_ulid, target.ulid);
  if (!fresh) throw new NotFoundError(messages.notFound);
  return fresh;
}
