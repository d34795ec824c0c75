import type { components } from '../../../generated/public.js';
import type { EvaluationOutcome, JsonValue } from '../../engine/index.js';
import { jsonText, type JsonText } from '../../http/json-text.js';

type Schemas = components['schemas'];

/**
 * Response bodies of GET /v1/flags and GET /v1/flags/{flagKey}, written as text: each item
 * `{"flag":{"key":…,"name":…,"type":…,"value":{"<type>":<value>}}}` is a prefix cached per
 * snapshot and flag plus the value's JSON. The same bytes JSON.stringify gives for the object
 * form, without building four objects per flag (one with a computed key) and walking them again.
 */
interface ItemPrefix {
  name: string;
  type: string;
  text: string;
}

interface FlagSet {
  has(key: string): boolean;
}

const prefixesBySnapshot = new WeakMap<object, Map<string, ItemPrefix>>();

function itemPrefix(outcome: EvaluationOutcome): ItemPrefix {
  const type = JSON.stringify(outcome.type);
  return {
    name: outcome.name,
    type: outcome.type,
    text: `{"flag":{"key":${JSON.stringify(outcome.key)},"name":${JSON.stringify(outcome.name)},"type":${type},"value":{${type}:`,
  };
}

function prefixesOf(snapshot: object): Map<string, ItemPrefix> {
  let cache = prefixesBySnapshot.get(snapshot);
  if (cache === undefined) {
    cache = new Map();
    prefixesBySnapshot.set(snapshot, cache);
  }
  return cache;
}

/** The prefix of an outcome's item; kept for the flags the snapshot holds (declared-only keys are not). */
function prefixText(snapshot: FlagSet, cache: Map<string, ItemPrefix>, outcome: EvaluationOutcome): string {
  const cached = cache.get(outcome.key);
  if (cached !== undefined && cached.name === outcome.name && cached.type === outcome.type) return cached.text;
  const prefix = itemPrefix(outcome);
  if (snapshot.has(outcome.key)) cache.set(outcome.key, prefix);
  return prefix.text;
}

function valueJson(value: JsonValue): string {
  if (value === true) return 'true';
  if (value === false) return 'false';
  return JSON.stringify(value);
}

function itemJson(snapshot: FlagSet, cache: Map<string, ItemPrefix>, outcome: EvaluationOutcome): string {
  const split = outcome.split;
  if (split !== undefined) return `${prefixText(snapshot, cache, outcome)}${valueJson(outcome.value)}},"split":${JSON.stringify(split)}}}`;
  return `${prefixText(snapshot, cache, outcome)}${valueJson(outcome.value)}}}}`;
}

/** `{"status":"success","data":[{"flag":…},…]}` */
export function evaluatedListJson(
  snapshot: FlagSet,
  outcomes: readonly EvaluationOutcome[],
): JsonText<Schemas['EvaluatedFlagListResponse']> {
  const cache = prefixesOf(snapshot);
  // Joined rather than appended: one flat string, which the response then measures and encodes cheaply.
  const items = new Array<string>(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) items[i] = itemJson(snapshot, cache, outcomes[i] as EvaluationOutcome);
  return jsonText(`{"status":"success","data":[${items.join(',')}]}`);
}

/** `{"status":"success","data":{"flag":…}}` */
export function evaluatedFlagJson(snapshot: FlagSet, outcome: EvaluationOutcome): JsonText<Schemas['EvaluatedFlagResponse']> {
  return jsonText(`{"status":"success","data":${itemJson(snapshot, prefixesOf(snapshot), outcome)}}`);
}
