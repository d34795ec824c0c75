import {
  CONTEXT_IDENTIFIER_MAX_LENGTH,
  CONTEXT_TYPE_MAX_LENGTH,
  parseContext,
  parseDefaultValues,
  type Context,
  type ContextAttribute,
  type DefaultValueDeclaration,
} from '../../engine/index.js';
import { BadRequestError, publicMessages } from '../../http/errors.js';
import { createAjv } from '../../http/openapi/ajv.js';
import type { OpenApiDocument } from '../../http/openapi/document.js';
import { normaliseSchema } from '../../http/openapi/schema-normaliser.js';
import { exceedsJsonDepth } from '../../http/json-depth.js';

/** Header names (lower case) in precedence order: canonical first, then the aliases (specs/public.yaml). */
export const contextHeaderNames = ['x-vexil-context', 'c'] as const;
export const defaultValueHeaderNames = ['x-vexil-default-value', 'x-default-value', 'd'] as const;

export const invalidDefaultsMessage = 'Default values were supplied but are invalid.';

/** No declarations: one shared, frozen empty list (most requests send none). */
const noDeclarations: readonly DefaultValueDeclaration[] = Object.freeze([]);

type Headers = Record<string, string | string[] | undefined>;

/** The first of `names` present with a non-empty value (an empty header counts as absent). */
export function firstHeader(headers: Headers, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headerText(headers, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** One header's value; undefined when absent, empty or only white space. */
function headerText(headers: Headers, name: string): string | undefined {
  const raw = headers[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' ? raw : raw.join(', ');
  return value.trim() !== '' ? value : undefined;
}

const invalidJson = Symbol('invalid JSON');

/** Header texts whose decoded contexts are kept (InputDecoder.recentContexts), and the longest kept: at most about 4 MB. */
const RECENT_CONTEXTS = 1024;
const RECENT_CONTEXT_MAX_TEXT = 4096;

/**
 * Freezes a context parseContext built (fresh objects of known members only), member by member:
 * a generic walk through Object.values allocated an array per object, 0.9 µs for the bench's
 * three-attribute context against 0.3 µs here (about 2 % of a one-flag request with a new context).
 */
function freezeContext(context: Context): Context {
  const attributes = context.attributes;
  if (attributes !== undefined) {
    for (const attribute of attributes) {
      for (const value of attribute.values) Object.freeze(value);
      Object.freeze(attribute.values);
      Object.freeze(attribute);
    }
    Object.freeze(attributes);
  }
  return Object.freeze(context);
}

/** The JSON value of a header or query text; invalidJson when malformed or nested too deep. */
function parseJson(text: string): unknown {
  if (exceedsJsonDepth(text)) return invalidJson;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return invalidJson;
  }
}

/** Any byte above ASCII: Node hands header bytes over as Latin-1 characters. */
const nonAscii = /[\u0080-\uffff]/;

/**
 * A header's text as the UTF-8 its bytes are (a raw `{"city":"Zürich"}` arrives as Latin-1
 * characters); invalidJson when the bytes are not UTF-8, so nothing is matched on mis-decoded text.
 * ASCII headers (JSON with \u escapes included) pass untouched, at the cost of one test.
 */
function utf8HeaderText(text: string): string | typeof invalidJson {
  if (!nonAscii.test(text)) return text;
  const bytes = Buffer.from(text, 'latin1');
  const decoded = bytes.toString('utf8');
  // Invalid UTF-8 decodes lossily; only a round trip to the same bytes proves it was UTF-8.
  return Buffer.from(decoded, 'utf8').equals(bytes) ? decoded : invalidJson;
}

interface InputChecks {
  context: (value: unknown) => boolean;
  defaults: (value: unknown) => boolean;
}

/** Compiled once per document: decoders built on the same document (tests build many) share them. */
const compiledChecks = new WeakMap<OpenApiDocument, InputChecks>();

function compileChecks(publicDocument: OpenApiDocument): InputChecks {
  const schemas = (publicDocument.components as { schemas: Record<string, unknown> }).schemas;
  const ajv = createAjv({ coerce: false });
  const context = structuredClone(schemas.Context);
  const declaration = structuredClone(schemas.DefaultValueDeclaration);
  normaliseSchema(context);
  normaliseSchema(declaration);
  return { context: ajv.compile(context as object), defaults: ajv.compile({ type: 'array', items: declaration }) };
}

/**
 * Decodes the request inputs of evaluation: the context (header or body) and the declared
 * default values, validated against the published document's `Context` and
 * `DefaultValueDeclaration` schemas and then by the engine (which also checks that a declared
 * value fits its declared type).
 */
export class InputDecoder {
  private readonly contextSchema: (value: unknown) => boolean;
  private readonly defaultsSchema: (value: unknown) => boolean;
  /**
   * Contexts decoded from header texts seen recently, by the exact text: an application asking for
   * several flags for one user sends the same text each time, and decoding it (UTF-8 check, JSON,
   * schema, engine checks) is about a fifth of a one-flag request's CPU. The contexts are frozen
   * (requests share them); the map is bounded and emptied when full.
   */
  private readonly recentContexts = new Map<string, Context>();
  /** Contexts decoded from bodies seen recently, by their JSON text (see `shared`). */
  private readonly sharedContexts = new Map<string, Context>();

  constructor(publicDocument: OpenApiDocument) {
    const checks = compiledChecks.get(publicDocument) ?? compileChecks(publicDocument);
    compiledChecks.set(publicDocument, checks);
    this.contextSchema = checks.context;
    this.defaultsSchema = checks.defaults;
  }

  /** A decoded Context value; undefined when it does not match the schema. */
  contextOf(value: unknown): Context | undefined {
    if (!this.contextSchema(value)) return undefined;
    const parsed = parseContext(value);
    return parsed.ok ? parsed.context : undefined;
  }

  /**
   * The context header: X-VEXIL-CONTEXT, else C; null when neither is sent. Every one sent must
   * decode to a valid Context (400 otherwise), the alias too when the canonical header wins.
   */
  contextHeader(headers: Headers): Context | null {
    let chosen: Context | null = null;
    for (const name of contextHeaderNames) {
      const text = headerText(headers, name);
      if (text === undefined) continue;
      const context = this.recentContexts.get(text) ?? this.decodeContextHeader(text);
      chosen ??= context;
    }
    return chosen;
  }

  private decodeContextHeader(text: string): Context {
    const utf8 = utf8HeaderText(text);
    const json = utf8 === invalidJson ? invalidJson : parseJson(utf8);
    const context = json !== invalidJson ? this.contextOf(json) : undefined;
    if (!context) throw new BadRequestError(publicMessages.invalidContext);
    if (text.length <= RECENT_CONTEXT_MAX_TEXT) {
      if (this.recentContexts.size >= RECENT_CONTEXTS) this.recentContexts.clear();
      this.recentContexts.set(text, freezeContext(context));
    }
    return context;
  }

  /**
   * The default-value header: X-VEXIL-DEFAULT-VALUE, else X-DEFAULT-VALUE, else D; [] when none
   * is sent. Every one sent must be valid (400 otherwise), decoded as UTF-8 like the context.
   */
  defaultsHeader(headers: Headers): readonly DefaultValueDeclaration[] {
    let chosen: DefaultValueDeclaration[] | undefined;
    for (const name of defaultValueHeaderNames) {
      const text = headerText(headers, name);
      if (text === undefined) continue;
      const utf8 = utf8HeaderText(text);
      const json = utf8 === invalidJson ? invalidJson : parseJson(utf8);
      if (json === invalidJson || !this.defaultsSchema(json)) throw new BadRequestError(invalidDefaultsMessage);
      const parsed = parseDefaultValues(json);
      if (!parsed.ok) throw new BadRequestError(invalidDefaultsMessage);
      chosen ??= parsed.declarations;
    }
    return chosen ?? noDeclarations;
  }

  /**
   * The one frozen object held for contexts equal to `context` (itself, frozen, the first time):
   * a context from a body is decoded afresh on every request, and the answers kept for a
   * repeated context (repeated-lists.ts) are found by the object. Bounded like the header's.
   */
  shared(context: Context | null): Context | null {
    if (context === null || Object.isFrozen(context)) return context;
    const text = JSON.stringify(context);
    if (text.length > RECENT_CONTEXT_MAX_TEXT) return context;
    const held = this.sharedContexts.get(text);
    if (held !== undefined) return held;
    if (this.sharedContexts.size >= RECENT_CONTEXTS) this.sharedContexts.clear();
    this.sharedContexts.set(text, freezeContext(context));
    return context;
  }

  /** The management `context` query parameter; undefined when invalid. */
  contextText(text: string): Context | undefined {
    const json = parseJson(text);
    return json !== invalidJson ? this.contextOf(json) : undefined;
  }

  /** Declared defaults given as a JSON value (as the header's JSON text would decode); undefined when invalid. */
  defaultsOf(value: unknown): readonly DefaultValueDeclaration[] | undefined {
    if (!this.defaultsSchema(value)) return undefined;
    const parsed = parseDefaultValues(value);
    return parsed.ok ? parsed.declarations : undefined;
  }

  /**
   * The inputs of an evaluation twin (`EvaluationRequest` body): the same documents as the
   * context and default-value headers, with the same 400s, checked in the same order.
   */
  evaluationBody(body: EvaluationBody | undefined): EvaluationInputs {
    let context: Context | null = null;
    if (body?.context !== undefined) {
      context = this.shared(this.contextOf(body.context) ?? null);
      if (!context) throw new BadRequestError(publicMessages.invalidContext);
    }
    let defaults = noDeclarations;
    if (body?.default_values !== undefined) {
      const declared = this.defaultsOf(body.default_values);
      if (!declared) throw new BadRequestError(invalidDefaultsMessage);
      defaults = declared;
    }
    return { context, defaults };
  }
}

/** The body of the evaluation twins (specs/public.yaml, EvaluationRequest), as the router validated it. */
export interface EvaluationBody {
  context?: unknown;
  default_values?: unknown;
}

export interface EvaluationInputs {
  context: Context | null;
  defaults: readonly DefaultValueDeclaration[];
}

export type OfrepContextResult =
  | { ok: true; context: Context | null }
  | { ok: false; errorCode: 'INVALID_CONTEXT' | 'TARGETING_KEY_MISSING'; details: string };

export const targetingKeyMissingMessage = 'The context has no targetingKey.';

/** An OFREP context member as attribute values: strings as they are, other JSON compact. */
function attributeValues(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      if (item === null || item === undefined) continue;
      out.push(scalarText(item));
    }
    return out;
  }
  return [scalarText(value)];
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value) ?? String(value);
}

const invalidContext: OfrepContextResult = { ok: false, errorCode: 'INVALID_CONTEXT', details: publicMessages.invalidContext };

/**
 * The Vexil context of an OFREP request body (specs/public.yaml, ofrepEvaluateFlag):
 * `targetingKey` is the identifier, `contextType` (default `user`) the type, every other member
 * an attribute. No body, no context or an empty context: evaluation without a context. Members of
 * the body other than `context` are ignored (the protocol allows them). An empty `targetingKey`
 * (the protocol sets no minimum) is a context without an identifier, which the engine never puts
 * inside a partial rollout.
 */
export function ofrepContext(body: unknown): OfrepContextResult {
  if (body === undefined || body === null) return { ok: true, context: null };
  const raw = (body as { context?: unknown }).context;
  if (raw === undefined) return { ok: true, context: null };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return invalidContext;
  const members = raw as Record<string, unknown>;
  if (Object.keys(members).length === 0) return { ok: true, context: null };
  const targetingKey = members.targetingKey;
  if (targetingKey === undefined || targetingKey === null) {
    return { ok: false, errorCode: 'TARGETING_KEY_MISSING', details: targetingKeyMissingMessage };
  }
  if (typeof targetingKey !== 'string' || targetingKey.length > CONTEXT_IDENTIFIER_MAX_LENGTH) return invalidContext;
  const contextType = members.contextType ?? 'user';
  if (typeof contextType !== 'string' || contextType.length === 0 || contextType.length > CONTEXT_TYPE_MAX_LENGTH) {
    return invalidContext;
  }
  const attributes: ContextAttribute[] = [];
  for (const [key, value] of Object.entries(members)) {
    if (key === 'targetingKey' || key === 'contextType' || key === '') continue;
    const values = attributeValues(value);
    if (values.length === 0) continue;
    attributes.push({ key, values: values.map((v) => ({ value: v })) });
  }
  return { ok: true, context: { type: contextType, identifier: targetingKey, attributes } };
}
