import { BadRequestError, emptyFieldErrors, NotFoundError, InvalidQueryError, ValidationError, type FieldErrors } from '../errors.js';
import { NAME_PATTERN, NAME_PATTERN_MESSAGE } from './name-pattern.js';
import { createAjv, type ErrorObject } from './ajv.js';
import type { OperationSpec, ParameterSpec } from './operations.js';
import { normaliseSchema } from './schema-normaliser.js';

export interface OperationValidators {
  /** False when the operation declares no query parameters: `query` would only copy. */
  readonly checksQuery: boolean;
  /** Path parameters; a mismatch means no such resource (404). */
  path(params: Record<string, string>): void;
  /** Query parameters, coerced to their types with defaults applied; 422 in the standard envelope. */
  query(query: Record<string, unknown>): Record<string, unknown>;
  /** Header parameters (names lower-cased); 400. */
  headers(headers: Record<string, unknown>): void;
  /** Request body; 422 in the field-keyed shape. */
  body(body: unknown): void;
}

const paramAjv = createAjv({ coerce: true });
const bodyAjv = createAjv({ coerce: false });

/** Compiled once per operation at start-up (never per request: compiling costs far more than validating). */
export function compileValidators(op: OperationSpec): OperationValidators {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  const pathCheck = compileParams(pathParams, false);
  const queryCheck = compileParams(queryParams, false);
  const headerCheck = compileParams(headerParams, true);
  // Checks that cannot fail are not run per request (most public operations have only these).
  const checksPath = pathParams.length > 0;
  const checksHeaders = !headerParams.every(alwaysValidHeader);
  let bodyCheck: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } = () => true;
  if (op.bodySchema) {
    normaliseSchema(op.bodySchema);
    bodyCheck = bodyAjv.compile(op.bodySchema);
  }
  return {
    checksQuery: queryParams.length > 0,
    path(params) {
      if (checksPath && !pathCheck(params)) throw new NotFoundError('Resource not found.');
    },
    query(query) {
      const copy = { ...query };
      if (!queryCheck(copy)) throw new InvalidQueryError(`Invalid query parameter: ${describe(queryCheck.errors)}.`);
      return copy;
    },
    headers(headers) {
      if (checksHeaders && !headerCheck(headers)) throw new BadRequestError(`Invalid header: ${describe(headerCheck.errors)}.`);
    },
    body(body) {
      if (!bodyCheck(body)) throw new ValidationError(fieldErrors(bodyCheck.errors ?? []));
    },
  };
}

/**
 * An optional header whose schema is only `type: string` accepts every request: Node gives every
 * request header as a string (only `set-cookie` repeats into an array), and there is no default
 * to fill in.
 */
export function alwaysValidHeader(p: ParameterSpec): boolean {
  const keys = Object.keys(p.schema);
  return (
    !p.required &&
    p.name.toLowerCase() !== 'set-cookie' &&
    p.schema.type === 'string' &&
    keys.every((key) => key === 'type' || key === 'description' || key === 'example')
  );
}

function compileParams(params: ParameterSpec[], lowerCaseNames: boolean) {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    const name = lowerCaseNames ? p.name.toLowerCase() : p.name;
    normaliseSchema(p.schema);
    properties[name] = p.schema;
    if (p.required) required.push(name);
  }
  return paramAjv.compile({ type: 'object', properties, required, additionalProperties: true });
}

function describe(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'invalid value';
  if (first.keyword === 'required') return `${String(first.params.missingProperty)} is required`;
  return `${first.instancePath.replace(/^\//, '').replace(/\//g, '.')} ${first.message ?? 'is invalid'}`;
}

/** Ajv errors keyed by dotted field path, e.g. `criteria.0.selector`. */
export function fieldErrors(errors: ErrorObject[]): FieldErrors {
  const out = emptyFieldErrors();
  const add = (field: string, message: string) => {
    const list = (out[field || 'body'] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const branchErrors = new Set(['anyOf', 'oneOf', 'if']);
  for (const error of errors) {
    const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const label = base || 'body';
    if (branchErrors.has(error.keyword)) continue;
    switch (error.keyword) {
      case 'required': {
        const field = [base, String(error.params.missingProperty)].filter(Boolean).join('.');
        add(field, `The ${field} field is required.`);
        break;
      }
      case 'additionalProperties': {
        const field = [base, String(error.params.additionalProperty)].filter(Boolean).join('.');
        add(field, `The ${field} field is not allowed.`);
        break;
      }
      case 'enum':
        add(base, `The ${label} field must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}.`);
        break;
      case 'type':
        add(base, `The ${label} field must be of type ${String(error.params.type).replace(',', ' or ')}.`);
        break;
      case 'pattern':
        add(base, `The ${label} field ${error.params.pattern === NAME_PATTERN ? NAME_PATTERN_MESSAGE : (error.message ?? 'is invalid')}.`);
        break;
      default:
        add(base, `The ${label} field ${error.message ?? 'is invalid'}.`);
    }
  }
  if (Object.keys(out).length === 0) add('body', 'The request body is invalid.');
  return out;
}
