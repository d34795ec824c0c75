/**
 * Validation of the two request inputs of an evaluation, already decoded from JSON:
 * the Context (specs/public.yaml, schema Context) and the default-value declarations.
 *
 * Both are strict: unknown members, wrong types and out-of-range lengths are rejected with a
 * reason naming the offending path. The parsed result is a fresh object holding only the known
 * members, so callers never keep a reference to the raw input.
 */
import type { Context, ContextAttribute, ContextAttributeValue, DefaultValueDeclaration, FlagType, JsonValue } from './types.js';

export const CONTEXT_TYPE_MAX_LENGTH = 200;
export const CONTEXT_IDENTIFIER_MAX_LENGTH = 1000;
/** Deepest nesting accepted in a declared json default value. */
export const DECLARED_JSON_MAX_DEPTH = 64;

export type ParseContextResult = { ok: true; context: Context } | { ok: false; reason: string };

export type ParseDefaultValuesResult = { ok: true; declarations: DefaultValueDeclaration[] } | { ok: false; reason: string };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function unknownMember(obj: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) return k;
  }
  return undefined;
}

const CONTEXT_MEMBERS = ['type', 'identifier', 'name', 'attributes'] as const;
const ATTRIBUTE_MEMBERS = ['key', 'values'] as const;
const VALUE_MEMBERS = ['value'] as const;

/** Validates a decoded Context. */
export function parseContext(input: unknown): ParseContextResult {
  if (!isPlainObject(input)) return { ok: false, reason: 'context must be an object' };
  const extra = unknownMember(input, CONTEXT_MEMBERS);
  if (extra !== undefined) return { ok: false, reason: `context has unknown member "${extra}"` };

  const type = input['type'];
  if (typeof type !== 'string' || type.length === 0) {
    return { ok: false, reason: 'context.type must be a non-empty string' };
  }
  if (type.length > CONTEXT_TYPE_MAX_LENGTH) {
    return { ok: false, reason: `context.type must be at most ${CONTEXT_TYPE_MAX_LENGTH} characters` };
  }
  const identifier = input['identifier'];
  if (typeof identifier !== 'string' || identifier.length === 0) {
    return { ok: false, reason: 'context.identifier must be a non-empty string' };
  }
  if (identifier.length > CONTEXT_IDENTIFIER_MAX_LENGTH) {
    return {
      ok: false,
      reason: `context.identifier must be at most ${CONTEXT_IDENTIFIER_MAX_LENGTH} characters`,
    };
  }
  const name = input['name'];
  if (name !== undefined && typeof name !== 'string') {
    return { ok: false, reason: 'context.name must be a string' };
  }

  const rawAttributes = input['attributes'];
  let attributes: ContextAttribute[] | undefined;
  if (rawAttributes !== undefined) {
    if (!Array.isArray(rawAttributes)) return { ok: false, reason: 'context.attributes must be an array' };
    attributes = [];
    for (let i = 0; i < rawAttributes.length; i++) {
      const raw: unknown = rawAttributes[i];
      const path = `context.attributes[${i}]`;
      if (!isPlainObject(raw)) return { ok: false, reason: `${path} must be an object` };
      const extraA = unknownMember(raw, ATTRIBUTE_MEMBERS);
      if (extraA !== undefined) return { ok: false, reason: `${path} has unknown member "${extraA}"` };
      const key = raw['key'];
      if (typeof key !== 'string') return { ok: false, reason: `${path}.key must be a string` };
      const rawValues = raw['values'];
      if (!Array.isArray(rawValues)) return { ok: false, reason: `${path}.values must be an array` };
      const values: ContextAttributeValue[] = [];
      for (let j = 0; j < rawValues.length; j++) {
        const rv: unknown = rawValues[j];
        const vpath = `${path}.values[${j}]`;
        if (!isPlainObject(rv)) return { ok: false, reason: `${vpath} must be an object` };
        const extraV = unknownMember(rv, VALUE_MEMBERS);
        if (extraV !== undefined) return { ok: false, reason: `${vpath} has unknown member "${extraV}"` };
        const value = rv['value'];
        if (typeof value !== 'string') return { ok: false, reason: `${vpath}.value must be a string` };
        values.push({ value });
      }
      attributes.push({ key, values });
    }
  }

  const context: { type: string; identifier: string; name?: string; attributes?: ContextAttribute[] } = {
    type,
    identifier,
  };
  if (name !== undefined) context.name = name;
  if (attributes !== undefined) context.attributes = attributes;
  return { ok: true, context };
}

const DECLARATION_MEMBERS = ['key', 'type', 'value'] as const;

function isFlagType(v: unknown): v is FlagType {
  return v === 'boolean' || v === 'number' || v === 'string' || v === 'json';
}

/** Whether `v` is a JSON value (plain data, finite numbers) nested at most `depth` levels. */
export function isJsonValue(v: unknown, depth = DECLARED_JSON_MAX_DEPTH): v is JsonValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (depth <= 0) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (!isJsonValue(v[i], depth - 1)) return false;
    }
    return true;
  }
  if (isPlainObject(v)) {
    for (const k of Object.keys(v)) {
      if (!isJsonValue(v[k], depth - 1)) return false;
    }
    return true;
  }
  return false;
}

/** Whether `value` fits a flag of type `type`. */
export function valueMatchesType(type: FlagType, value: unknown): value is JsonValue {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'json':
      return isJsonValue(value);
  }
}

/** Validates a decoded array of default-value declarations. */
export function parseDefaultValues(input: unknown): ParseDefaultValuesResult {
  if (!Array.isArray(input)) return { ok: false, reason: 'default values must be an array' };
  const declarations: DefaultValueDeclaration[] = [];
  for (let i = 0; i < input.length; i++) {
    const raw: unknown = input[i];
    const path = `default values[${i}]`;
    if (!isPlainObject(raw)) return { ok: false, reason: `${path} must be an object` };
    const extra = unknownMember(raw, DECLARATION_MEMBERS);
    if (extra !== undefined) return { ok: false, reason: `${path} has unknown member "${extra}"` };
    const key = raw['key'];
    if (typeof key !== 'string' || key.length === 0) {
      return { ok: false, reason: `${path}.key must be a non-empty string` };
    }
    const type = raw['type'];
    if (!isFlagType(type)) {
      return { ok: false, reason: `${path}.type must be one of boolean, number, string, json` };
    }
    if (!Object.prototype.hasOwnProperty.call(raw, 'value')) {
      return { ok: false, reason: `${path}.value is required` };
    }
    const value = raw['value'];
    if (!valueMatchesType(type, value)) {
      return { ok: false, reason: `${path}.value does not match type ${type}` };
    }
    declarations.push({ key, type, value });
  }
  return { ok: true, declarations };
}
