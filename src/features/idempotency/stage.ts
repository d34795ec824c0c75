import { errorBody, statusOf } from '../../http/error-middleware.js';
import { DomainError } from '../../http/errors.js';
import { operationState } from '../../http/operation.js';
import type { Stage } from '../../http/openapi/router.js';
import type { IdempotencyService } from './service.js';

/**
 * Around the handler of every operation that documents the Idempotency-Key header (the P and U
 * operations), once the request is authenticated, rate-limited, authorized and validated (an
 * over-long key was already refused with 400 by header validation). The key is scoped to the
 * token, the method and the path.
 */
export function idempotencyStage(service: IdempotencyService): Stage {
  return async (ctx, next) => {
    const state = operationState(ctx);
    const key = ctx.get('idempotency-key');
    const principal = state.managementPrincipal;
    if (!state.operation?.idempotent || key === '' || !principal) return next();

    const scope = service.scope(principal.tokenUlid, ctx.method, ctx.path, key);
    const result = await service.run(scope, state.body, async () => {
      try {
        await next();
        return { outcome: { status: ctx.status, body: ctx.body }, value: undefined };
      } catch (error) {
        // Typed errors are answers too (404 and 422 are stored and replayed); anything else is a 500.
        if (error instanceof DomainError) return { outcome: { status: statusOf(error), body: errorBody(error) }, value: error };
        throw error;
      }
    });
    if (result.replayed) {
      ctx.status = result.status;
      if (result.body !== undefined) ctx.body = result.body;
      ctx.set('X-Idempotent-Replayed', 'true');
      return;
    }
    if (result.value) throw result.value;
  };
}
