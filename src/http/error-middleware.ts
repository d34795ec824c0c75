import type Koa from 'koa';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../storage/db-errors.js';
import {
  BadRequestError,
  ConflictError,
  DomainError,
  ForbiddenError,
  InvalidQueryError,
  MethodNotAllowedError,
  NotFoundError,
  NotImplementedError,
  OfrepError,
  PayloadTooLargeError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  KeyKindNotAllowedError,
  UnprocessableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from './errors.js';
import { jsonContentType } from './json-response.js';

/** Where a failed request was going: what its error's log line and answer depend on. */
export interface FailedRequest {
  path: string;
  method: string;
  requestId: string | undefined;
}

/** What a failed request is answered: status, headers (Content-Type included) and JSON body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * The answer to `caught`, for the Koa path (errorMiddleware) and the public reads answered in
 * front of Koa alike (the error responses of specs/). Field-keyed 422 for body validation,
 * OFREP's own shape under /ofrep, the standard `{status: "error", message}` envelope for
 * everything else. An unreachable database is a 503 with Retry-After; anything untyped a 500
 * without details, its stack logged.
 */
export function errorAnswer(logger: Logger, caught: unknown, request: FailedRequest): ErrorAnswer {
  const { path, method, requestId } = request;
  let error = caught;
  if (isDatabaseUnavailable(caught)) {
    logger.warn({ err: caught, requestId, path, method }, 'database unavailable');
    error = new ServiceUnavailableError('The database is unavailable; try again shortly.', DATABASE_RETRY_AFTER_SECONDS);
  }
  // OFREP clients expect OFREP's general error shape `{errorDetails}` (401, 413, 415, 429, 500).
  const ofrep = path.startsWith('/ofrep/');
  if (error instanceof DomainError) {
    const headers: Record<string, string> = { ...headersOf(error), 'Content-Type': jsonContentType };
    if (error instanceof UnauthorizedError) headers['WWW-Authenticate'] = challengeFor(path);
    const body = ofrep && !(error instanceof OfrepError) ? { errorDetails: error.message } : errorBody(error);
    return { status: statusOf(error), headers, body };
  }
  logger.error({ err: error, requestId, path, method }, 'unhandled error');
  const body = ofrep
    ? { errorDetails: 'Internal server error.' }
    : { status: 'error', message: 'Internal server error.', code: 'internal_error' };
  return { status: 500, headers: { 'Content-Type': jsonContentType }, body };
}

/** The outermost middleware: the only place the Koa path writes error bodies (errorAnswer). */
export function errorMiddleware(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const answer = errorAnswer(logger, caught, { path: ctx.path, method: ctx.method, requestId: requestIdIn(ctx) });
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body;
    }
  };
}

/** The status code of each kind of typed error: the one place errors meet HTTP. */
const statuses = new Map<abstract new (...args: never[]) => DomainError, number>([
  [BadRequestError, 400],
  [UnauthorizedError, 401],
  [KeyKindNotAllowedError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [ValidationError, 422],
  [UnprocessableError, 422],
  [InvalidQueryError, 422],
  [RateLimitedError, 429],
  [NotImplementedError, 501],
  [ServiceUnavailableError, 503],
]);

/** The response status of a typed error (also what the audit trail and idempotency record). */
export function statusOf(error: DomainError): number {
  if (error instanceof OfrepError) return error.status;
  const status = statuses.get(error.constructor as abstract new (...args: never[]) => DomainError);
  if (status === undefined) throw new Error(`no status for ${error.constructor.name}`);
  return status;
}

/** The response headers a typed error asks for: Allow after a 405, Retry-After after a 429 or 503. */
export function headersOf(error: DomainError): Record<string, string> {
  if (error instanceof MethodNotAllowedError) return { Allow: error.allowed.join(', ') };
  if (error instanceof RateLimitedError || error instanceof ServiceUnavailableError) {
    return { 'Retry-After': String(Math.max(1, Math.ceil(error.retryAfterSeconds))) };
  }
  return {};
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

/** The response body of a typed error (exported for stages that record responses: idempotency). */
export function errorBody(error: DomainError): unknown {
  if (error instanceof ValidationError) return { message: error.message, errors: error.errors, code: error.code };
  if (error instanceof OfrepError) {
    return error.flagKey === undefined
      ? { errorCode: error.errorCode, errorDetails: error.message }
      : { key: error.flagKey, errorCode: error.errorCode, errorDetails: error.message };
  }
  if (error instanceof KeyKindNotAllowedError) {
    return { status: 'error', message: error.message, code: error.code, accepted_kinds: error.acceptedKinds };
  }
  if (error instanceof ForbiddenError && error.requiredScope) {
    return { status: 'error', message: error.message, code: error.code, required_scope: error.requiredScope };
  }
  return { status: 'error', message: error.message, code: error.code };
}
