import type { components } from '../../../generated/public.js';
import type { EvaluationOutcome } from '../../engine/index.js';
import { jsonText, type JsonText } from '../../http/json-text.js';
import { itemsOf, joinItems, valueJson, type FlagPart } from './json-parts.js';

export type PayloadBody = JsonText<components['schemas']['PayloadResponse'], Buffer>;

/** What the payload's head names: its ETag, revision and environment. */
export interface PayloadHead {
  etag: string;
  revision: number;
  environmentUlid: string;
  environmentKey: string;
}

const payloadItems = Symbol('payload items');
const close = Buffer.from(']}}');

/** `{"key":…,"name":…,"type":…,"value":` */
function itemHead(outcome: EvaluationOutcome): string {
  return `{"key":${JSON.stringify(outcome.key)},"name":${JSON.stringify(outcome.name)},"type":${JSON.stringify(outcome.type)},"value":`;
}

function itemText(part: FlagPart, outcome: EvaluationOutcome): string {
  const tail = `,"resolved_by":"${outcome.resolved_by}"`;
  const split = outcome.split === undefined ? '' : `,"split":${JSON.stringify(outcome.split)}`;
  return `${part.text}${valueJson(outcome.value)}${tail}${split}}`;
}

/**
 * The client or mobile payload (specs/public.yaml, PayloadResponse, kind `client`) as UTF-8 JSON
 * bytes: the same bytes JSON.stringify gives for the object form, flag items encoded once per
 * snapshot where they can be (json-parts.ts).
 */
export function clientPayloadJson(
  snapshot: { has(key: string): boolean },
  head: PayloadHead,
  outcomes: readonly EvaluationOutcome[],
): PayloadBody {
  const items = itemsOf(snapshot, payloadItems, outcomes, itemHead, itemText);
  const environment = `{"ulid":${JSON.stringify(head.environmentUlid)},"key":${JSON.stringify(head.environmentKey)}}`;
  const open = Buffer.from(
    `{"status":"success","data":{"kind":"client","etag":${JSON.stringify(head.etag)},"revision":${head.revision},"environment":${environment},"flags":[`,
  );
  return jsonText<components['schemas']['PayloadResponse'], Buffer>(joinItems(open, items, close));
}
