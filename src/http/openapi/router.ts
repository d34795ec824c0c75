import Router from '@koa/router';
import type Koa from 'koa';
import { readJsonBody } from '../body.js';
import { MethodNotAllowedError, NotFoundError, NotImplementedError } from '../errors.js';
import type { HandlerMap, OperationResult, PublicStageContext } from '../operation.js';
import { operationState } from '../operation.js';
import type { LoadedDocument } from './document.js';
import { readOperations, type OperationSpec } from './operations.js';
import { runStages, type Stage } from './stages.js';

export type { PublicStage, Stage } from './stages.js';
export type { PublicStageContext };
import { compileValidators, type OperationValidators } from './validators.js';
import { setJsonContentType } from '../json-response.js';

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

/** The stages an operation runs: each one specialised for it, those with nothing to do left out. */
export function stagesFor<S extends { forOperation?: (op: OperationSpec) => S | undefined }>(stages: readonly S[], op: OperationSpec): S[] {
  const out: S[] = [];
  for (const stage of stages) {
    const specialised = stage.forOperation ? stage.forOperation(op) : stage;
    if (specialised) out.push(specialised);
  }
  return out;
}

/**
 * One @koa/router router per document, built once: a route per operation whose validators are
 * compiled here, at start-up (routing built per request was measured 20x too slow).
 * Each route is one middleware: its stages are chained here, not composed per request.
 */
export function buildApiRouter(api: ApiDefinition): { router: Router; operations: OperationSpec[] } {
  const router = new Router();
  const operations = readOperations(api.document.dereferenced);
  const compiled = compiledValidators(api.document);
  for (const op of operations) {
    const validators = compiled.get(op.operationId) ?? compileValidators(op);
    compiled.set(op.operationId, validators);
    const handler = api.handlers[op.operationId];

    const invoke = async (ctx: Koa.Context): Promise<void> => {
      if (!handler) throw new NotImplementedError(op.operationId);
      const result: OperationResult = await (handler as (request: unknown) => Promise<OperationResult>)(api.buildRequest(ctx, op));
      if (result.streamed) return;
      ctx.status = result.status ?? 200;
      if (result.headers) ctx.set(result.headers);
      const body = result.body;
      if (body !== undefined) {
        setJsonContentType(ctx, body);
        ctx.body = body;
      }
    };
    const around = stagesFor(api.aroundHandler, op);
    const handle = around.length === 0 ? invoke : (ctx: Koa.Context) => runStages(around, 0, ctx, invoke);

    // Parameters are checked synchronously; only an operation with a body waits (to read it).
    const checkParameters = (ctx: Koa.Context): void => {
      const state = operationState(ctx);
      const params = ctx.params as Record<string, string>;
      validators.path(params);
      validators.headers(ctx.req.headers as Record<string, unknown>);
      state.params = params;
      state.query = validators.checksQuery ? validators.query(ctx.query) : unvalidatedQuery(ctx);
    };
    const validate = op.bodySchema
      ? async (ctx: Koa.Context): Promise<void> => {
          checkParameters(ctx);
          const body = await readJsonBody(ctx, api.maxBodyBytes);
          if (body !== undefined || op.bodyRequired) validators.body(body);
          operationState(ctx).body = body;
          return handle(ctx);
        }
      : (ctx: Koa.Context): Promise<void> => {
          checkParameters(ctx);
          return handle(ctx);
        };

    const before = stagesFor(api.beforeValidation, op);
    const route = (ctx: Koa.Context): Promise<void> => {
      operationState(ctx).operation = op;
      // Set first, so refusals and replays of an operation that hands out secrets are not kept either.
      if (op.noStore) ctx.set('Cache-Control', 'no-store');
      return runStages(before, 0, ctx, validate);
    };
    router.register(op.routerPath, [op.method.toUpperCase()], route as Parameters<Router['register']>[2], {
      name: op.operationId,
    });
  }
  return { router, operations };
}

const validatorsByDocument = new WeakMap<LoadedDocument, Map<string, OperationValidators>>();

/** Validators hold no request state, so routers built on the same document share them. */
function compiledValidators(document: LoadedDocument): Map<string, OperationValidators> {
  let compiled = validatorsByDocument.get(document);
  if (!compiled) {
    compiled = new Map();
    validatorsByDocument.set(document, compiled);
  }
  return compiled;
}

/** The query of an operation that declares no query parameters: a copy, as validation would give. */
function unvalidatedQuery(ctx: Koa.Context): Record<string, unknown> {
  // Most such requests have no query string at all: skip Koa's parse.
  return ctx.req.url?.includes('?') ? { ...ctx.query } : {};
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
