import type Koa from 'koa';
import { UnauthorizedError, publicMessages } from '../http/errors.js';
import { operationState } from '../http/operation.js';
import type { EnvironmentKeyCache } from './environment-key-cache.js';
import type { EnvironmentKeyKind } from './principal.js';

/** Canonical header first, then the accepted aliases (DESIGN.md section 3). */
export const apiKeyHeaders = ['x-vexil-api-key', 'x-api-key', 'x-vexil-key'] as const;

/** Operations that evaluate on the server answer only server keys (SPEC.md section 5). */
const serverKeyOperations = new Set(['listEvaluatedFlags', 'getEvaluatedFlag']);

export function readApiKey(ctx: Koa.Context): string | undefined {
  for (const header of apiKeyHeaders) {
    const value = ctx.get(header);
    if (value !== '') return value.trim();
  }
  return undefined;
}

export function allowedKinds(operationId: string): readonly EnvironmentKeyKind[] {
  return serverKeyOperations.has(operationId) ? ['server'] : ['server', 'mobile', 'client'];
}

/** Pipeline stage: resolve the environment key from memory, or 401. */
export function authenticatePublic(keys: EnvironmentKeyCache) {
  return async (ctx: Koa.Context, next: () => Promise<void>): Promise<void> => {
    const state = operationState(ctx);
    const op = state.operation;
    if (op?.secured !== false) {
      const principal = keys.resolve(readApiKey(ctx));
      if (!principal || !allowedKinds(op?.operationId ?? '').includes(principal.kind)) {
        throw new UnauthorizedError(publicMessages.invalidKey, 'auth.invalid_token');
      }
      state.publicPrincipal = principal;
    }
    await next();
  };
}
