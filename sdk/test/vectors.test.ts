/**
 * Every vector of specs/evaluation-vectors.json through the SDK's public evaluation API (server
 * client bootstrapped with the vector's configuration), and through the OpenFeature server
 * provider on the real @openfeature/server-sdk.
 *
 * How a vector maps to an SDK call: the application calls the typed method with its own default,
 * which is a declared default for that flag and type. The vector's declaration used is the one
 * of the flag's key and type (else the first of its key); without one, a sentinel default of
 * the flag's type (string for unknown keys) is passed.
 * - expected {value, resolved_by}: the SDK returns exactly that, with no error (a served declared
 *   default is resolved_by `default`). With `split` the details carry it, the reason is SPLIT and
 *   the OpenFeature variant is the split's variant, its weight in flagMetadata.split_weight.
 * - expected null (unavailable): the SDK returns the default it was given. When the flag exists
 *   with the called type and has nothing to serve, that default is served as a declared default
 *   (resolved_by `default`, like the server with a declared default); otherwise (unknown key,
 *   other type) it comes with FLAG_NOT_FOUND or TYPE_MISMATCH.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenFeature, type EvaluationContext, type JsonValue as OFJsonValue } from '@openfeature/server-sdk';
import type { Context, DefaultValueDeclaration, EnvironmentConfig, FlagType, JsonValue } from '../../src/engine/index.js';
import { VexilServerClient } from '../src/server-client.js';
import { VexilServerProvider } from '../src/openfeature/server.js';
import type { EvaluationDetails } from '../src/types.js';

interface Vector {
  name: string;
  config: EnvironmentConfig;
  flag_key: string;
  context: Context | null;
  declared_defaults: DefaultValueDeclaration[];
  expected: { value: JsonValue; resolved_by: string; split?: { rule: number | null; variant: string; weight: number } } | null;
}

const file = JSON.parse(readFileSync(new URL('../../specs/evaluation-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

const SENTINEL: Record<FlagType, JsonValue> = {
  boolean: false,
  number: -987654321,
  string: '__sdk_default__',
  json: { __sdk_default__: true },
};

interface Call {
  type: FlagType;
  defaultValue: JsonValue;
  flagType: FlagType | undefined;
}

function callFor(v: Vector): Call {
  const flagType = v.config.flags.find((f) => f.key === v.flag_key)?.type;
  const declaration =
    v.declared_defaults.find((d) => d.key === v.flag_key && d.type === flagType) ?? v.declared_defaults.find((d) => d.key === v.flag_key);
  if (declaration !== undefined) return { type: declaration.type, defaultValue: declaration.value, flagType };
  const type = flagType ?? 'string';
  return { type, defaultValue: SENTINEL[type], flagType };
}

function sdkDetails(client: VexilServerClient, v: Vector, call: Call): EvaluationDetails<JsonValue> {
  switch (call.type) {
    case 'boolean':
      return client.booleanDetails(v.flag_key, v.context, call.defaultValue as boolean);
    case 'number':
      return client.numberDetails(v.flag_key, v.context, call.defaultValue as number);
    case 'string':
      return client.stringDetails(v.flag_key, v.context, call.defaultValue as string);
    case 'json':
      return client.jsonDetails(v.flag_key, v.context, call.defaultValue);
  }
}

function sdkValue(client: VexilServerClient, v: Vector, call: Call): JsonValue {
  switch (call.type) {
    case 'boolean':
      return client.boolean(v.flag_key, v.context, call.defaultValue as boolean);
    case 'number':
      return client.number(v.flag_key, v.context, call.defaultValue as number);
    case 'string':
      return client.string(v.flag_key, v.context, call.defaultValue as string);
    case 'json':
      return client.json(v.flag_key, v.context, call.defaultValue);
  }
}

const REASONS: Record<string, string> = {
  rule: 'TARGETING_MATCH',
  rollout: 'SPLIT',
  target: 'STATIC',
  default: 'DEFAULT',
  prerequisite: 'PREREQUISITE_FAILED',
};

/** What the SDK must answer for a vector (see the header comment). */
function expectedDetails(
  v: Vector,
  call: Call,
): { value: JsonValue; resolvedBy: string | null; reason: string; errorCode?: string; split?: NonNullable<Vector['expected']>['split'] } {
  if (v.expected !== null) {
    const split = v.expected.split;
    if (split !== undefined) return { value: v.expected.value, resolvedBy: v.expected.resolved_by, reason: 'SPLIT', split };
    return { value: v.expected.value, resolvedBy: v.expected.resolved_by, reason: REASONS[v.expected.resolved_by]! };
  }
  if (call.flagType === undefined) return { value: call.defaultValue, resolvedBy: null, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' };
  if (call.flagType !== call.type) return { value: call.defaultValue, resolvedBy: null, reason: 'ERROR', errorCode: 'TYPE_MISMATCH' };
  return { value: call.defaultValue, resolvedBy: 'default', reason: 'DEFAULT' };
}

/** The vector's context as an OpenFeature context (targetingKey, contextType, attributes as members). */
function openFeatureContext(context: Context | null): EvaluationContext {
  if (context === null) return {};
  const out: Record<string, string | string[]> = { targetingKey: context.identifier, contextType: context.type };
  for (const a of context.attributes ?? []) {
    const values = a.values.map((x) => x.value);
    const existing = out[a.key];
    out[a.key] = existing === undefined ? values : [...(existing as string[]), ...values];
  }
  return out;
}

describe('specs/evaluation-vectors.json through the SDK', () => {
  it('has the vectors', () => {
    expect(file.vectors.length).toBeGreaterThanOrEqual(150);
  });

  describe.each(file.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    it('server client: value and details', () => {
      const client = new VexilServerClient({ offline: true, bootstrap: v.config, logger: null });
      expect(client.status).toBe('ready');
      const call = callFor(v);
      const want = expectedDetails(v, call);
      const details = sdkDetails(client, v, call);
      expect(details.value).toEqual(want.value);
      expect(details.resolvedBy).toBe(want.resolvedBy);
      expect(details.reason).toBe(want.reason);
      expect(details.errorCode).toBe(want.errorCode);
      expect(details.split).toEqual(want.split);
      expect(details.revision).toBe(v.config.revision);
      expect(sdkValue(client, v, call)).toEqual(want.value);
    });
  });
});

describe('specs/evaluation-vectors.json through the OpenFeature server provider', () => {
  const domain = 'vectors';
  let providers: VexilServerProvider[] = [];

  beforeAll(() => {
    providers = [];
  });
  afterAll(async () => {
    await OpenFeature.close();
  });

  it.each(file.vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    const provider = new VexilServerProvider({ offline: true, bootstrap: v.config, logger: null });
    providers.push(provider);
    await OpenFeature.setProviderAndWait(domain, provider);
    const client = OpenFeature.getClient(domain);
    const call = callFor(v);
    const want = expectedDetails(v, call);
    const context = openFeatureContext(v.context);
    const details =
      call.type === 'boolean'
        ? await client.getBooleanDetails(v.flag_key, call.defaultValue as boolean, context)
        : call.type === 'number'
          ? await client.getNumberDetails(v.flag_key, call.defaultValue as number, context)
          : call.type === 'string'
            ? await client.getStringDetails(v.flag_key, call.defaultValue as string, context)
            : await client.getObjectDetails(v.flag_key, call.defaultValue as OFJsonValue, context);
    expect(details.value).toEqual(want.value);
    expect(details.reason).toBe(want.reason);
    expect(details.errorCode).toBe(want.errorCode);
    if (want.resolvedBy !== null) expect(details.flagMetadata['resolved_by']).toBe(want.resolvedBy);
    if (want.split !== undefined) {
      expect(details.variant).toBe(want.split.variant);
      expect(details.flagMetadata['split_weight']).toBe(want.split.weight);
    }
  });
});
