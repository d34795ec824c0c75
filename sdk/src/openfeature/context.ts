/**
 * OpenFeature evaluation context -> Vexil context, the same mapping the server's OFREP endpoints
 * use: `targetingKey` is the identifier, `contextType` the context type (default `user`), and
 * every other member an attribute whose values are the member converted to strings (booleans
 * `true`/`false`, numbers in JSON form, dates in ISO form, objects as compact JSON; an array gives
 * one value per element; null and undefined members are ignored). An empty context is no context;
 * members without a targetingKey are TARGETING_KEY_MISSING.
 */
import type { Context, ContextAttribute, EvaluationDetails, JsonValue } from '../types.js';

export type MappedContext =
  | { readonly ok: true; readonly context: Context | null }
  | { readonly ok: false; readonly code: 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT'; readonly message: string };

const NO_CONTEXT: MappedContext = { ok: true, context: null };

function toAttributeString(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function fromOpenFeatureContext(input: Readonly<Record<string, unknown>> | undefined | null): MappedContext {
  if (input === undefined || input === null) return NO_CONTEXT;
  let targetingKey: unknown;
  let contextType: unknown;
  let members = 0;
  const attributes: ContextAttribute[] = [];
  for (const key of Object.keys(input)) {
    const raw = input[key];
    if (raw === undefined || raw === null) continue;
    members++;
    if (key === 'targetingKey') {
      targetingKey = raw;
      continue;
    }
    if (key === 'contextType') {
      contextType = raw;
      continue;
    }
    const list = Array.isArray(raw) ? (raw as unknown[]) : [raw];
    const values: { value: string }[] = [];
    for (const item of list) {
      const text = toAttributeString(item);
      if (text !== undefined) values.push({ value: text });
    }
    attributes.push({ key, values });
  }
  if (members === 0) return NO_CONTEXT;
  if (targetingKey === undefined) {
    return { ok: false, code: 'TARGETING_KEY_MISSING', message: 'The context has attributes but no targetingKey.' };
  }
  if (typeof targetingKey !== 'string' || targetingKey.length === 0 || targetingKey.length > 1000) {
    return { ok: false, code: 'INVALID_CONTEXT', message: 'targetingKey must be a string of 1 to 1000 characters.' };
  }
  const type = contextType === undefined ? 'user' : contextType;
  if (typeof type !== 'string' || type.length === 0 || type.length > 200) {
    return { ok: false, code: 'INVALID_CONTEXT', message: 'contextType must be a string of 1 to 200 characters.' };
  }
  return {
    ok: true,
    context: attributes.length === 0 ? { type, identifier: targetingKey } : { type, identifier: targetingKey, attributes },
  };
}

/** The served value in display form, as OFREP's `variant`: true/false, the number, the string, compact JSON. */
export function variantOf(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** SDK details -> the fields of an OpenFeature ResolutionDetails. */
export function toResolution<T>(details: EvaluationDetails<T>): {
  value: T;
  reason: string;
  variant?: string;
  errorCode?: string;
  errorMessage?: string;
  flagMetadata: Record<string, string | number | boolean>;
} {
  const flagMetadata: Record<string, string | number | boolean> = {};
  if (details.resolvedBy !== null) flagMetadata['resolved_by'] = details.resolvedBy;
  if (details.flagType !== undefined) flagMetadata['type'] = details.flagType;
  if (details.revision !== null) flagMetadata['revision'] = details.revision;
  if (details.split !== undefined) flagMetadata['split_weight'] = details.split.weight;
  if (details.errorCode !== undefined) {
    return {
      value: details.value,
      reason: 'ERROR',
      errorCode: details.errorCode,
      errorMessage: details.errorMessage ?? details.errorCode,
      flagMetadata,
    };
  }
  const variant = details.split !== undefined ? details.split.variant : variantOf(details.value as JsonValue);
  return { value: details.value, reason: details.reason, variant, flagMetadata };
}
