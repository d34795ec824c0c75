/**
 * Context handling: the SDK accepts the Vexil Context or a record-attribute form, checks it
 * cheaply on the evaluation path, and prepares it for headers and usage reports.
 */
import { parseContext } from '../../src/engine/index.js';
import type { AttributeInput, Context, ContextAttribute, ContextAttributeValue, SdkContext } from './types.js';

/** Returned by normalizeContext for an unusable context. */
export const INVALID_CONTEXT: unique symbol = Symbol('invalid context');

function attributeString(v: AttributeInput): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return String(v);
}

function fromRecord(record: Record<string, unknown>): ContextAttribute[] | typeof INVALID_CONTEXT {
  const attributes: ContextAttribute[] = [];
  for (const key of Object.keys(record)) {
    const raw = record[key];
    if (raw === null || raw === undefined) continue;
    const values: ContextAttributeValue[] = [];
    const list = Array.isArray(raw) ? (raw as unknown[]) : [raw];
    for (const item of list) {
      if (item === null || item === undefined) continue;
      if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') return INVALID_CONTEXT;
      values.push({ value: attributeString(item) });
    }
    attributes.push({ key, values });
  }
  return attributes;
}

/** Whether array-form attributes are well formed: [{key: string, values: [{value: string}]}] (no allocation). */
function attributesWellFormed(attributes: readonly unknown[]): boolean {
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i] as { key?: unknown; values?: unknown } | null;
    if (typeof a !== 'object' || a === null || typeof a.key !== 'string') return false;
    const values = a.values;
    if (!Array.isArray(values)) return false;
    for (let j = 0; j < values.length; j++) {
      const v = values[j] as { value?: unknown } | null;
      if (typeof v !== 'object' || v === null || typeof v.value !== 'string') return false;
    }
  }
  return true;
}

/**
 * The Context to evaluate with: null for no context, INVALID_CONTEXT when `type` or `identifier`
 * is not a non-empty string or attributes are malformed. A Context with well-formed array
 * attributes is returned as is (checked without copying: this runs on every evaluation).
 */
export function normalizeContext(input: SdkContext | null | undefined): Context | null | typeof INVALID_CONTEXT {
  if (input === null || input === undefined) return null;
  if (typeof input !== 'object') return INVALID_CONTEXT;
  const { type, identifier } = input;
  if (typeof type !== 'string' || type === '' || typeof identifier !== 'string' || identifier === '') {
    return INVALID_CONTEXT;
  }
  const attributes: unknown = input.attributes;
  if (attributes === undefined) return input as Context;
  if (Array.isArray(attributes)) return attributesWellFormed(attributes) ? (input as Context) : INVALID_CONTEXT;
  if (typeof attributes !== 'object' || attributes === null) return INVALID_CONTEXT;
  const converted = fromRecord(attributes as Record<string, unknown>);
  if (converted === INVALID_CONTEXT) return INVALID_CONTEXT;
  const out: { type: string; identifier: string; name?: string; attributes: ContextAttribute[] } = {
    type,
    identifier,
    attributes: converted,
  };
  if (typeof input.name === 'string') out.name = input.name;
  return out;
}

/** Whether the context is fully valid (used to classify an evaluation failure). */
export function isValidContext(context: Context): boolean {
  return parseContext(context).ok;
}

/** JSON text for a header: characters outside ASCII written as \uXXXX escapes (the document's rule). */
export function headerJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** A stable text for comparing contexts (storage cache, setContext). */
export function contextFingerprint(context: Context | null): string {
  return context === null ? 'null' : JSON.stringify(context);
}

const LIMITS = { name: 200, attributes: 100, key: 200, values: 100, value: 1000 } as const;

/**
 * The context as a usage report may carry it (the document's Context schema, with its length
 * limits), or undefined when it does not fit: the use is then reported without a context.
 */
export function usageContext(context: Context): Context | undefined {
  const parsed = parseContext(context);
  if (!parsed.ok) return undefined;
  const c = parsed.context;
  if (c.name !== undefined && c.name.length > LIMITS.name) return undefined;
  const attributes = c.attributes ?? [];
  if (attributes.length > LIMITS.attributes) return undefined;
  for (const a of attributes) {
    if (a.key.length === 0 || a.key.length > LIMITS.key || a.values.length > LIMITS.values) return undefined;
    for (const v of a.values) if (v.value.length > LIMITS.value) return undefined;
  }
  return c;
}
