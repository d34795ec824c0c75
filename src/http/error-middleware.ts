import type Koa from 'koa';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../storage/db-errors.js';
import { HttpError, OfrepError, ValidationError, ForbiddenError, ServiceUnavailableError, UnauthorizedError } from './errors.js';
import { setJsonContentType } from './json-response.js';

/**
 * The outermost middleware: the only place error bodies are written (SPEC.md section 7).
 * Field-keyed 422 for body validation, OFREP's own shape under /ofrep, the standard
 * `{status: "error", message}` envelope for everything else. Unexpected errors become a 500
 * without details; the log gets the stack.
 */
export function errorMiddleware(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = isDatabaseUnavailable(caught) ? databaseUnavailable(logger, ctx, caught) : caught;
      // OFREP clients expect OFREP's general error shape `{errorDetails}` (401, 413, 415, 429, 500).
      const ofrep = ctx.path.startsWith('/ofrep/');
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.set(error.headers);
        if (error instanceof UnauthorizedError) ctx.set('WWW-Authenticate', challengeFor(ctx.path));
        respondJson(ctx, ofrep && !(error instanceof OfrepError) ? { errorDetails: error.message } : errorBody(error));
      } else {
        logger.error({ err: error, requestId: requestIdIn(ctx), path: ctx.path, method: ctx.method }, 'unhandled error');
        ctx.status = 500;
        respondJson(ctx, ofrep ? { errorDetails: 'Internal server error.' } : { status: 'error', message: 'Internal server error.', code: 'internal_error' });
      }
    }
  };
}

/**
 * The challenge of a 401 (RFC 9110 requires one), as the documents state: the environment-key
 * header of the public API (OFREP: the protocol's `X-API-Key`), Bearer for the management API and
 * for /metrics with VEXIL_METRICS_TOKEN.
 */
export function challengeFor(path: string): string {
  if (path.startsWith('/ofrep/')) return 'ApiKey realm="vexil", header="X-API-Key"';
  if (path.startsWith('/management/')) return 'Bearer realm="vexil"';
  if (path === '/metrics') return 'Bearer realm="vexil-metrics"';
  return 'ApiKey realm="vexil", header="X-VEXIL-API-KEY"';
}

/** Seconds a client is asked to wait after a 503 for an unavailable database. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The id the request log line and the X-Request-Id response header carry (set by requestLog). */
function requestIdIn(ctx: Koa.Context): string | undefined {
  return (ctx.state as { requestId?: string }).requestId;
}

/** An unreachable or hung database (storage/db-errors.ts) is a 503 with Retry-After, not a 500. */
function databaseUnavailable(logger: Logger, ctx: Koa.Context, cause: unknown): ServiceUnavailableError {
  logger.warn({ err: cause, requestId: requestIdIn(ctx), path: ctx.path, method: ctx.method }, 'database unavailable');
  return new ServiceUnavailableError('The database is unavailable; try again shortly.', DATABASE_RETRY_AFTER_SECONDS);
}

function respondJson(ctx: Koa.Context, body: unknown): void {
  setJsonContentType(ctx, body);
  ctx.body = body;
}

/** The response body of a typed error (exported for stages that record responses: idempotency). */
export function errorBody(error: HttpError): unknown {
  if (error instanceof ValidationError) return { message: error.message, errors: error.errors, code: error.code };
  if (error instanceof OfrepError) {
    return error.flagKey === undefined
      ? { errorCode: error.errorCode, errorDetails: error.message }
      : { key: error.flagKey, errorCode: error.errorCode, errorDetails: error.message };
  }
  if (error instanceof ForbiddenError && error.requiredScope) {
    return { status: 'error', message: error.message, code: error.code, required_scope: error.requiredScope };
  }
  return { status: 'error', message: error.message, code: error.code };
}
