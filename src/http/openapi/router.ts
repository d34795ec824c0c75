import Router from '@koa/router';
import type Koa from 'koa';
import { readJsonBody } from '../body.js';
import { MethodNotAllowedError, NotFoundError, NotImplementedError } from '../errors.js';
import type { HandlerMap, OperationResult } from '../operation.js';
import { operationState } from '../operation.js';
import type { LoadedDocument } from './document.js';
import { readOperations, type OperationSpec } from './operations.js';
import { compileValidators } from './validators.js';

export type Stage = (ctx: Koa.Context, next: () => Promise<void>) => Promise<void>;

export interface ApiDefinition {
  document: LoadedDocument;
  handlers: HandlerMap;
  /** Before parameter and body validation: authentication, rate limiting, scope checks. */
  beforeValidation: Stage[];
  /** After validation, around the handler: idempotency. */
  aroundHandler: Stage[];
  /** Builds the handler's request object (adds the principal). */
  buildRequest: (ctx: Koa.Context, op: OperationSpec) => unknown;
  maxBodyBytes: number;
}

/**
 * One @koa/router router per document, built once: a route per operation whose validators are
 * compiled here, at start-up (DESIGN.md section 2 measured per-request routing as 20x too slow).
 */
export function buildApiRouter(api: ApiDefinition): { router: Router; operations: OperationSpec[] } {
  const router = new Router();
  const operations = readOperations(api.document.dereferenced);
  for (const op of operations) {
    const validators = compileValidators(op);
    const handler = api.handlers[op.operationId];

    const validate: Stage = async (ctx, next) => {
      const state = operationState(ctx);
      const params = ctx.params as Record<string, string>;
      validators.path(params);
      validators.headers(ctx.headers as Record<string, unknown>);
      state.params = params;
      state.query = validators.query(ctx.query as Record<string, unknown>);
      if (op.bodySchema) {
        const body = await readJsonBody(ctx, api.maxBodyBytes);
        if (body !== undefined || op.bodyRequired) validators.body(body);
        state.body = body;
      }
      await next();
    };

    const invoke: Stage = async (ctx) => {
      if (!handler) throw new NotImplementedError(op.operationId);
      const result: OperationResult = await handler(api.buildRequest(ctx, op));
      if (result.streamed) return;
      ctx.status = result.status ?? 200;
      if (result.headers) ctx.set(result.headers);
      if (result.body !== undefined) ctx.body = result.body;
    };

    const stages: Stage[] = [
      async (ctx, next) => {
        operationState(ctx).operation = op;
        await next();
      },
      ...api.beforeValidation,
      validate,
      ...api.aroundHandler,
      invoke,
    ];
    router.register(op.routerPath, [op.method.toUpperCase()], stages as Parameters<Router["register"]>[2], {
      name: op.operationId,
    });
  }
  return { router, operations };
}

/**
 * Runs after the routes when none answered: 405 with Allow for a known path and the wrong
 * method, 404 for an unknown path.
 */
export function unmatchedRoute(routers: Router[]): Koa.Middleware {
  return async (ctx) => {
    // Only the most literal matching path counts: /flags/bulk-delete is its own resource, even
    // though the /flags/{flagKey} template also matches it.
    const layers = routers.flatMap((router) => router.match(ctx.path, ctx.method).path);
    const fewestParams = Math.min(...layers.map((layer) => layer.paramNames.length));
    const allowed = new Set<string>();
    for (const layer of layers) {
      if (layer.paramNames.length !== fewestParams) continue;
      for (const method of layer.methods) if (method !== 'HEAD') allowed.add(method);
    }
    if (allowed.size > 0) throw new MethodNotAllowedError([...allowed]);
    throw new NotFoundError('Not found.');
  };
}
