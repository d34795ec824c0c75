import type { EvaluationOutcome } from '../../engine/index.js';
import { itemsOf, joinItems, valueJson, type FlagPart } from './json-parts.js';
import { ofrepReasonOf, variantOf } from './ofrep-shape.js';

const ofrepItems = Symbol('ofrep items');
const open = Buffer.from('{"flags":[');
const close = Buffer.from(']}');

/** `{"key":…,"reason":` */
function itemHead(outcome: EvaluationOutcome): string {
  return `{"key":${JSON.stringify(outcome.key)},"reason":`;
}

function itemText(part: FlagPart, outcome: EvaluationOutcome, revision: number): string {
  const weight = outcome.split === undefined ? '' : `,"split_weight":${JSON.stringify(outcome.split.weight)}`;
  const metadata = `{"resolved_by":"${outcome.resolved_by}","type":${JSON.stringify(outcome.type)},"revision":${revision}${weight}}`;
  return `${part.text}"${ofrepReasonOf(outcome)}","variant":${JSON.stringify(variantOf(outcome))},"value":${valueJson(outcome.value)},"metadata":${metadata}}`;
}

/**
 * The OFREP bulk answer `{"flags":[…]}` (specs/public.yaml, ofrepEvaluateFlags) of evaluations
 * that all succeeded, as UTF-8 JSON bytes: the bytes JSON.stringify gives for the objects
 * toOfrepSuccess makes, items encoded once per snapshot where they can be (json-parts.ts).
 */
export function ofrepBulkJson(
  snapshot: { has(key: string): boolean },
  outcomes: readonly EvaluationOutcome[],
  revisionOf: (key: string) => number,
): Buffer {
  const items = itemsOf(snapshot, ofrepItems, outcomes, itemHead, (part, outcome) => itemText(part, outcome, revisionOf(outcome.key)));
  return joinItems(open, items, close);
}
