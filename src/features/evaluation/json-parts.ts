import type { EvaluationOutcome, JsonValue } from '../../engine/index.js';

/**
 * What the answers encoded from parts share: the text of a flag's own fields is made once per
 * snapshot and flag (held while the snapshot is), an item's whole bytes once per snapshot, flag
 * and outcome where the outcome is one of a few (a boolean without a split), and the answer is
 * copied together from them: no text of the whole answer is built, measured and encoded per request.
 */

/** A flag's cached parts: its name and type (a declared-only key may differ), its text, and whole items by outcome. */
export interface FlagPart {
  readonly name: string;
  readonly type: string;
  readonly text: string;
  /** Whole items' bytes by a short key of the outcome (made on first use). */
  readonly items: Map<string, Buffer>;
}

interface FlagSet {
  has(key: string): boolean;
}

/** Per snapshot, per kind of answer (its own symbol), per flag key. */
const partsBySnapshot = new WeakMap<object, Map<symbol, Map<string, FlagPart>>>();

/** The parts of one kind of answer for `snapshot`. */
function partsOf(snapshot: object, kind: symbol): Map<string, FlagPart> {
  let kinds = partsBySnapshot.get(snapshot);
  if (kinds === undefined) partsBySnapshot.set(snapshot, (kinds = new Map()));
  let parts = kinds.get(kind);
  if (parts === undefined) kinds.set(kind, (parts = new Map()));
  return parts;
}

/**
 * The part of an outcome's flag, `text(outcome)` made once; kept for the flags the snapshot holds
 * (declared-only keys are not).
 */
function partOf(
  snapshot: FlagSet,
  parts: Map<string, FlagPart>,
  outcome: EvaluationOutcome,
  text: (outcome: EvaluationOutcome) => string,
): FlagPart {
  const cached = parts.get(outcome.key);
  if (cached !== undefined && cached.name === outcome.name && cached.type === outcome.type) return cached;
  const part: FlagPart = { name: outcome.name, type: outcome.type, text: text(outcome), items: new Map() };
  if (snapshot.has(outcome.key)) parts.set(outcome.key, part);
  return part;
}

/** A value's JSON (booleans without a call). */
export function valueJson(value: JsonValue): string {
  if (value === true) return 'true';
  if (value === false) return 'false';
  return JSON.stringify(value);
}

/** The key of an outcome whose item is kept whole: a boolean served without a split (else undefined). */
function keptItemKey(outcome: EvaluationOutcome): string | undefined {
  if (outcome.split !== undefined || typeof outcome.value !== 'boolean') return undefined;
  return outcome.value ? `t${outcome.resolved_by}` : `f${outcome.resolved_by}`;
}

/**
 * Each outcome's item as UTF-8 bytes, for answers of `kind`: `head(outcome)` is the flag's own
 * text (made once per snapshot and flag), `text(part, outcome)` the whole item's; a boolean
 * without a split is encoded once per snapshot, flag and reason.
 */
export function itemsOf(
  snapshot: FlagSet,
  kind: symbol,
  outcomes: readonly EvaluationOutcome[],
  head: (outcome: EvaluationOutcome) => string,
  text: (part: FlagPart, outcome: EvaluationOutcome) => string,
): Buffer[] {
  const parts = partsOf(snapshot, kind);
  const items = new Array<Buffer>(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i] as EvaluationOutcome;
    const part = partOf(snapshot, parts, outcome, head);
    const kept = keptItemKey(outcome);
    let bytes = kept === undefined ? undefined : part.items.get(kept);
    if (bytes === undefined) {
      bytes = Buffer.from(text(part, outcome));
      if (kept !== undefined) part.items.set(kept, bytes);
    }
    items[i] = bytes;
  }
  return items;
}

const comma = 0x2c;

/** `open`, the items separated by commas, `close`, as one buffer. */
export function joinItems(open: Buffer, items: readonly Buffer[], close: Buffer): Buffer {
  let size = open.length + close.length + Math.max(items.length - 1, 0);
  for (let i = 0; i < items.length; i++) size += (items[i] as Buffer).length;
  const out = Buffer.allocUnsafe(size);
  out.set(open, 0);
  let at = open.length;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out[at++] = comma;
    const bytes = items[i] as Buffer;
    out.set(bytes, at);
    at += bytes.length;
  }
  out.set(close, at);
  return out;
}
