/**
 * The one module of typed errors. Services and stores throw these; only the error middleware
 * (error-middleware.ts) turns them into response bodies (SPEC.md section 7).
 */
export type FieldErrors = Record<string, string[]>;

export abstract class HttpError extends Error {
  abstract readonly status: number;
  /** Extra response headers (Allow, Retry-After...). */
  headers: Record<string, string> = {};
}

/** 400: malformed JSON, bad header, over-long Idempotency-Key, undecodable public context. */
export class BadRequestError extends HttpError {
  readonly status = 400;
}

/** 401: missing, invalid, revoked or expired credentials. */
export class UnauthorizedError extends HttpError {
  readonly status = 401;
  constructor(
    message: string,
    /** Audit action for the refusal (auth.missing_token, auth.invalid_token, auth.expired_token). */
    readonly auditAction: string = 'auth.invalid_token',
  ) {
    super(message);
  }
}

/** 403: the token lacks a scope (requiredScope set) or a grant. */
export class ForbiddenError extends HttpError {
  readonly status = 403;
  constructor(
    message: string,
    readonly requiredScope?: string,
  ) {
    super(message);
  }
}

export class NotFoundError extends HttpError {
  readonly status = 404;
}

export class MethodNotAllowedError extends HttpError {
  readonly status = 405;
  constructor(allowed: string[]) {
    super('Method not allowed.');
    this.headers = { Allow: allowed.join(', ') };
  }
}

/** 409: the same Idempotency-Key is still being processed. */
export class ConflictError extends HttpError {
  readonly status = 409;
}

export class PayloadTooLargeError extends HttpError {
  readonly status = 413;
}

export class UnsupportedMediaTypeError extends HttpError {
  readonly status = 415;
}

/** 422 in the field-keyed shape `{message, errors: {field: [msg]}}`: request body validation. */
export class ValidationError extends HttpError {
  readonly status = 422;
  constructor(
    readonly errors: FieldErrors,
    message: string = summarise(errors),
  ) {
    super(message);
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
}

/** 422 in the standard envelope: a state precondition failed, or a query parameter is bad. */
export class UnprocessableError extends HttpError {
  readonly status = 422;
}

export class RateLimitedError extends HttpError {
  readonly status = 429;
  constructor(retryAfterSeconds: number) {
    super('Rate limit exceeded.');
    this.headers = { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) };
  }
}

/** 503: the database did not answer in time (unreachable or hung); the request changed nothing. */
export class ServiceUnavailableError extends HttpError {
  readonly status = 503;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) };
  }
}

export class NotImplementedError extends HttpError {
  readonly status = 501;
  constructor(operationId: string) {
    super(`Operation ${operationId} is not implemented yet.`);
  }
}

/** OpenFeature Remote Evaluation Protocol errors have their own body shape. */
export class OfrepError extends HttpError {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly flagKey?: string,
  ) {
    super(message);
  }
}

function summarise(errors: FieldErrors): string {
  const fields = Object.keys(errors);
  const first = fields[0] === undefined ? undefined : errors[fields[0]]?.[0];
  if (first === undefined) return 'The given data was invalid.';
  return fields.length > 1 ? `${first} (and ${fields.length - 1} more error${fields.length > 2 ? 's' : ''})` : first;
}

/** Messages SPEC.md section 7 fixes for the public API. */
export const publicMessages = {
  invalidContext: 'Context was supplied but is invalid.',
  invalidKey: 'Invalid API key provided.',
  flagNotFound: 'Feature flag not found.',
} as const;
