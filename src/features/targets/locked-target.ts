import { NotFoundError } from '../../http/errors.js';
import { messages } from './state-rules.js';
import type { LockedEnvironment, TargetRecord, TargetStore, TargetTransaction } from './store-types.js';
import type { FlagEnvironment } from './types.js';

/**
 * Opens the transaction, takes the environment's lock and loads the target (404 when either is
 * absent), so concurrent changes of one flag and environment apply one after another.
 */
export function withLockedTarget<T>(
  store: TargetStore,
  ctx: FlagEnvironment,
  targetUlid: string,
  work: (tx: TargetTransaction, target: TargetRecord, env: LockedEnvironment) => Promise<T>,
): Promise<T> {
  return store.transaction(async (tx) => {
    const env = await lockEnvironment(tx, ctx);
    const target = await tx.find(ctx.flag.ulid, ctx.environment.ulid, targetUlid);
    if (!target) throw new NotFoundError(messages.notFound);
    return work(tx, target, env);
  });
}

/** Takes the environment's lock first in a transaction (404 when the environment is gone). */
export async function lockEnvironment(tx: TargetTransaction, ctx: FlagEnvironment): Promise<LockedEnvironment> {
  const env = await tx.lockEnvironment(ctx.environment.ulid);
  if (!env) throw new NotFoundError(`Environment "${ctx.environment.key}" not found.`);
  return env;
}

/** The target as it is now in the transaction (after a conditional update). */
export async function reload(tx: TargetTransaction, target: TargetRecord): Promise<TargetRecord> {
  const fresh = await tx.find(target.flag_ulid, target.environment_ulid, target.ulid);
  if (!fresh) throw new NotFoundError(messages.notFound);
  return fresh;
}
