import type { EvaluationOutcome } from '../../engine/index.js';

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

const prefixesBySnapshot = new WeakMap<object, Map<string, ItemPrefix>>();

function itemPrefix(outcome: EvaluationOutcome): ItemPrefix {
  const type = JSON.stringify(outcome.type);
  return {
    name: outcome.name,
    type: outcome.type,
    text: `{"flag":{"key":${JSON.stringify(outcome.key)},"name":${JSON.stringify(outcome.name)},"type":${type},"value":{${type}:`,
  };
}

/** The prefix of an outcome's item; cached for the flags the snapshot holds (`known`). */
function prefixText(snapshot: object, outcome: EvaluationOutcome, known: boolean): string {
  if (!known) return itemPrefix(outcome).text;
  let cache = prefixesBySnapshot.get(snapshot);
  if (cache === undefined) {
    cache = new Map();
    prefixesBySnapshot.set(snapshot, cache);
  }
  let prefix = cache.get(outcome.key);
  if (prefix === undefined || prefix.name !== outcome.name || prefix.type !== outcome.type) {
    prefix = itemPrefix(outcome);
    cache.set(outcome.key, prefix);
  }
  return prefix.text;
}

function itemJson(snapshot: { has(key: string): boolean }, outcome: EvaluationOutcome): string {
  return `${prefixText(snapshot, outcome, snapshot.has(outcome.key))}${JSON.stringify(outcome.value)}}}}`;
}

/** `{"status":"success","data":[{"flag":…},…]}` */
export function evaluatedListJson(snapshot: { has(key: string): boolean }, outcomes: readonly EvaluationOutcome[]): string {
  let out = '{"status":"success","data":[';
  for (let i = 0; i < outcomes.length; i++) {
    if (i > 0) out += ',';
    out += itemJson(snapshot, outcomes[i] as EvaluationOutcome);
  }
  return `${out}]}`;
}

/** `{"status":"success","data":{"flag":…}}` */
export function evaluatedFlagJson(snapshot: { has(key: string): boolean }, outcome: EvaluationOutcome): string {
  return `{"status":"success","data":${itemJson(snapshot, outcome)}}`;
}
