import type { components } from '../../../generated/public.js';
import type { EvaluationOutcome } from '../../engine/index.js';
import { jsonText, type JsonText } from '../../http/json-text.js';
import { joinItems, valueJson } from './json-parts.js';

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
  /** The whole item's UTF-8 bytes when the flag serves true, or false (no split), made on first use. */
  trueBytes?: Buffer;
  falseBytes?: Buffer;
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
function prefixOf(snapshot: FlagSet, cache: Map<string, ItemPrefix>, outcome: EvaluationOutcome): ItemPrefix {
  const cached = cache.get(outcome.key);
  if (cached !== undefined && cached.name === outcome.name && cached.type === outcome.type) return cached;
  const prefix = itemPrefix(outcome);
  if (snapshot.has(outcome.key)) cache.set(outcome.key, prefix);
  return prefix;
}

function prefixText(snapshot: FlagSet, cache: Map<string, ItemPrefix>, outcome: EvaluationOutcome): string {
  return prefixOf(snapshot, cache, outcome).text;
}

function itemJson(snapshot: FlagSet, cache: Map<string, ItemPrefix>, outcome: EvaluationOutcome): string {
  const split = outcome.split;
  if (split !== undefined) return `${prefixText(snapshot, cache, outcome)}${valueJson(outcome.value)}},"split":${JSON.stringify(split)}}}`;
  return `${prefixText(snapshot, cache, outcome)}${valueJson(outcome.value)}}}}`;
}

/** An item's UTF-8 bytes: for a boolean served without a split, kept per snapshot and flag. */
function itemBytes(snapshot: FlagSet, cache: Map<string, ItemPrefix>, outcome: EvaluationOutcome): Buffer {
  if (outcome.split === undefined && typeof outcome.value === 'boolean') {
    const prefix = prefixOf(snapshot, cache, outcome);
    if (outcome.value) return (prefix.trueBytes ??= Buffer.from(`${prefix.text}true}}}`));
    return (prefix.falseBytes ??= Buffer.from(`${prefix.text}false}}}`));
  }
  return Buffer.from(itemJson(snapshot, cache, outcome));
}

const listOpen = Buffer.from('{"status":"success","data":[');
const listClose = Buffer.from(']}');

/**
 * `{"status":"success","data":[{"flag":…},…]}` as UTF-8 bytes, copied together from items
 * encoded once per snapshot: no text of the whole list is built, measured and encoded per request.
 */
export function evaluatedListJson(
  snapshot: FlagSet,
  outcomes: readonly EvaluationOutcome[],
): JsonText<Schemas['EvaluatedFlagListResponse'], Buffer> {
  const cache = prefixesOf(snapshot);
  const items = new Array<Buffer>(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) items[i] = itemBytes(snapshot, cache, outcomes[i] as EvaluationOutcome);
  return jsonText<Schemas['EvaluatedFlagListResponse'], Buffer>(joinItems(listOpen, items, listClose));
}

/** `{"status":"success","data":{"flag":…}}` */
export function evaluatedFlagJson(snapshot: FlagSet, outcome: EvaluationOutcome): JsonText<Schemas['EvaluatedFlagResponse']> {
  return jsonText(`{"status":"success","data":${itemJson(snapshot, prefixesOf(snapshot), outcome)}}`);
}
