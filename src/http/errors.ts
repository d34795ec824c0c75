/**
 * The one module of typed errors. Services and stores throw these to say what went wrong in the
 * terms of the domain (not found, refused, a rule broken), each with its machine-readable code;
 * they know nothing of HTTP. Only the error middleware (error-middleware.ts) turns them into
 * status codes, headers and response bodies, in the shapes the OpenAPI documents give.
 */
export type FieldErrors = Record<string, string[]>;

/**
 * An empty field-error map with no prototype: field names come from request bodies, and a field
 * named `constructor` or `__proto__` must be a plain key, not a member of Object.prototype.
 */
export function emptyFieldErrors(): FieldErrors {
  return Object.create(null) as FieldErrors;
}

/**
 * The machine-readable `code` of every error body (the ErrorCode enum of both documents): stable
 * names a client can act on, beside the human messages.
 */
export type ErrorCode =
  | 'bad_request'
  | 'missing_token'
  | 'invalid_token'
  | 'expired_token'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'invalid_credentials'
  | 'forbidden'
  | 'scope_missing'
  | 'csrf_failed'
  | 'password_change_required'
  | 'key_kind_not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_in_flight'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'invalid_query'
  | 'invalid_cursor'
  | 'idempotency_key_reused'
  | 'state_conflict'
  | 'value_in_use'
  | 'flag_required'
  | 'confirmation_required'
  | 'already_exists'
  | 'reference_not_found'
  | 'invalid_combination'
  | 'date_not_in_future'
  | 'value_type_mismatch'
  | 'comment_required'
  | 'url_not_allowed'
  | 'rate_limited'
  | 'not_implemented'
  | 'internal_error'
  | 'database_unavailable';

export abstract class DomainError extends Error {
  /** Set where the error is thrown when the class's own code is too general. */
  private explicitCode: ErrorCode | undefined;

  /** The body's `code`. */
  get code(): ErrorCode {
    return this.explicitCode ?? this.defaultCode();
  }

  protected abstract defaultCode(): ErrorCode;

  /** The same error with a more precise code: `new UnprocessableError(...).withCode('invalid_cursor')`. */
  withCode(code: ErrorCode): this {
    this.explicitCode = code;
    return this;
  }
}

/** 400: malformed JSON, bad header, over-long Idempotency-Key, undecodable public context. */
export class BadRequestError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'bad_request';
  }
}

/** The code of a refused credential, by the refusal's audit action. */
const unauthorizedCodes: Record<string, ErrorCode> = {
  'auth.missing_token': 'missing_token',
  'auth.invalid_token': 'invalid_token',
  'auth.expired_token': 'expired_token',
  'auth.missing_key': 'missing_api_key',
  'auth.invalid_key': 'invalid_api_key',
  'auth.sign_in': 'invalid_credentials',
};

/** 401: missing, invalid, revoked or expired credentials. */
export class UnauthorizedError extends DomainError {
  protected defaultCode(): ErrorCode {
    return unauthorizedCodes[this.auditAction] ?? 'invalid_token';
  }
  constructor(
    message: string,
    /** Audit action for the refusal (auth.missing_token, auth.invalid_token, auth.expired_token). */
    readonly auditAction: string = 'auth.invalid_token',
  ) {
    super(message);
  }
}

/**
 * 401 for a valid environment key of a kind the operation does not accept: the message is that of
 * any refused key (specs/public.yaml), the code and `accepted_kinds` say which kinds would do.
 */
export class KeyKindNotAllowedError extends UnauthorizedError {
  protected override defaultCode(): ErrorCode {
    return 'key_kind_not_allowed';
  }
  constructor(readonly acceptedKinds: readonly string[]) {
    super(publicMessages.invalidKey, 'auth.key_kind_not_allowed');
  }
}

/** 403: the token lacks a scope (requiredScope set) or a grant. */
export class ForbiddenError extends DomainError {
  protected defaultCode(): ErrorCode {
    return this.requiredScope ? 'scope_missing' : 'forbidden';
  }
  constructor(
    message: string,
    readonly requiredScope?: string,
  ) {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'not_found';
  }
}

export class MethodNotAllowedError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'method_not_allowed';
  }
  constructor(readonly allowed: string[]) {
    super('Method not allowed.');
  }
}

/** 409: the same Idempotency-Key is still being processed. */
export class ConflictError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'idempotency_in_flight';
  }
}

export class PayloadTooLargeError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'payload_too_large';
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'unsupported_media_type';
  }
}

/** 422 in the field-keyed shape `{message, errors: {field: [msg]}}`: request body validation. */
export class ValidationError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'validation_failed';
  }
  constructor(
    readonly errors: FieldErrors,
    message: string = summarise(errors),
  ) {
    super(message);
  }

  /** One field's error; `code` names the rule when the input fits the document but breaks a rule. */
  static field(field: string, message: string, code: ErrorCode = 'validation_failed'): ValidationError {
    return new ValidationError({ [field]: [message] }).withCode(code);
  }
}

/**
 * Field errors collected from several checks, each with the code of the rule it broke. The
 * body's code is `validation_failed` when any error is one (the input does not fit the
 * document), otherwise the first rule's: a client can always tell a malformed request from
 * valid input refused by a rule (a key already taken, a project that does not exist).
 */
export class FieldErrorList {
  readonly errors: FieldErrors = emptyFieldErrors();
  private readonly codes: ErrorCode[] = [];

  add(field: string, message: string, code: ErrorCode = 'validation_failed'): this {
    (this.errors[field] ??= []).push(message);
    this.codes.push(code);
    return this;
  }

  get isEmpty(): boolean {
    return this.codes.length === 0;
  }

  /** An independent list with the same errors (for work that may run again, like a transaction). */
  copy(): FieldErrorList {
    const out = new FieldErrorList();
    for (const [field, messages] of Object.entries(this.errors)) out.errors[field] = [...messages];
    out.codes.push(...this.codes);
    return out;
  }

  /** Throws the collected errors as one field-keyed 422. */
  check(): void {
    if (this.isEmpty) return;
    const code = this.codes.includes('validation_failed') ? 'validation_failed' : (this.codes[0] as ErrorCode);
    throw new ValidationError(this.errors).withCode(code);
  }
}

/** 422 in the standard envelope: a state precondition failed. */
export class UnprocessableError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'state_conflict';
  }
}

/** 422 in the standard envelope: a query parameter is malformed or contradicts another. */
export class InvalidQueryError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'invalid_query';
  }
}

export class RateLimitedError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'rate_limited';
  }
  constructor(readonly retryAfterSeconds: number) {
    super('Rate limit exceeded.');
  }
}

/** 503: the database did not answer in time (unreachable or hung); the request changed nothing. */
export class ServiceUnavailableError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'database_unavailable';
  }
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class NotImplementedError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'not_implemented';
  }
  constructor(operationId: string) {
    super(`Operation ${operationId} is not implemented yet.`);
  }
}

/**
 * OpenFeature Remote Evaluation Protocol errors have their own body shape, and the protocol fixes
 * the status of each (`status`), so the error carries it.
 */
export class OfrepError extends DomainError {
  protected defaultCode(): ErrorCode {
    return 'bad_request';
  }

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

/** Messages the public API documents (specs/public.yaml). */
export const publicMessages = {
  invalidContext: 'Context was supplied but is invalid.',
  invalidKey: 'Invalid API key provided.',
  flagNotFound: 'Feature flag not found.',
} as const;
