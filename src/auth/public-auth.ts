import type Koa from 'koa';
import { KeyKindNotAllowedError, UnauthorizedError, publicMessages } from '../http/errors.js';
import { operationState } from '../http/operation.js';
import type { OperationSpec } from '../http/openapi/operations.js';
import type { Stage } from '../http/openapi/router.js';
import type { EnvironmentKeyCache } from './environment-key-cache.js';
import type { EnvironmentKeyKind } from './principal.js';

/** Canonical header first, then the accepted aliases (specs/public.yaml). */
export const apiKeyHeaders = ['x-vexil-api-key', 'x-api-key', 'x-vexil-key'] as const;

/** Operations that evaluate on the server answer only server keys (specs/public.yaml, 401 for other kinds). */
const serverKeyOperations = new Set(['listEvaluatedFlags', 'getEvaluatedFlag', 'evaluateFlags', 'evaluateFlag']);
const serverOnly: readonly EnvironmentKeyKind[] = ['server'];
const anyKind: readonly EnvironmentKeyKind[] = ['server', 'mobile', 'client'];

export function readApiKey(ctx: Koa.Context): string | undefined {
  // Read from Node's header object directly (what ctx.get does, without its getters).
  const headers = ctx.req.headers;
  for (const header of apiKeyHeaders) {
    const value = headers[header];
    if (typeof value === 'string' && value !== '') return value.trim();
  }
  return undefined;
}

export function allowedKinds(operationId: string): readonly EnvironmentKeyKind[] {
  return serverKeyOperations.has(operationId) ? serverOnly : anyKind;
}

/**
 * Pipeline stage: resolve the environment key from memory, or 401 (also for a key of another kind). Specialised per operation at
 * start-up: open operations (api-docs) skip it, and the accepted key kinds are looked up once.
 */
export function authenticatePublic(keys: EnvironmentKeyCache): Stage {
  const forOperation = (op: OperationSpec | undefined): Stage | undefined => {
    if (op?.secured === false) return undefined;
    const kinds = allowedKinds(op?.operationId ?? '');
    return (ctx, next) => {
      const principal = keys.resolve(readApiKey(ctx));
      if (!principal) {
        return Promise.reject(
          new UnauthorizedError(publicMessages.invalidKey, 'auth.invalid_token').withCode(
            readApiKey(ctx) ? 'invalid_api_key' : 'missing_api_key',
          ),
        );
      }
      // The key is known, so the audit entry names it; the answer is that of any refused key,
      // with the code and the kinds accepted (specs/public.yaml).
      operationState(ctx).publicPrincipal = principal;
      if (!kinds.includes(principal.kind)) {
        return Promise.reject(new KeyKindNotAllowedError(kinds));
      }
      return next();
    };
  };
  // Used unspecialised, it reads the operation from the request state.
  const stage: Stage = (ctx, next) => {
    const check = forOperation(operationState(ctx).operation);
    return check ? check(ctx, next) : next();
  };
  stage.forOperation = forOperation;
  return stage;
}
