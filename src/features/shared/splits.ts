/**
 * Weighted splits of a rule or a target's base (specs/management.yaml, schemas Split and
 * SplitWrite): the record the services keep, its API form, and the checks the document cannot
 * express (weights summing to 100 %, values of this flag, each value once).
 */
import { SPLIT_WEIGHT_TOTAL } from '../../engine/index.js';
import type { FieldErrorList } from '../../http/errors.js';

export interface SplitShareRecord {
  value_ulid: string;
  weight: number;
}

export interface SplitRecord {
  /** Context attribute bucketed by; null: the context identifier. */
  attribute: string | null;
  /** In configured order. */
  shares: SplitShareRecord[];
}

/** The body form (SplitWrite). */
export interface SplitInput {
  attribute?: string | null;
  shares: SplitShareRecord[];
}

export function toSplitRecord(input: SplitInput): SplitRecord {
  return {
    attribute: input.attribute ?? null,
    shares: input.shares.map((s) => ({ value_ulid: s.value_ulid, weight: s.weight })),
  };
}

/** The API form; a copy, so views never share arrays with records. */
export function splitView(split: SplitRecord | null | undefined): SplitRecord | null {
  return split ? toSplitRecord(split) : null;
}

/**
 * Adds to `errors` what is wrong with a split: weights not summing to 100000, a value listed
 * twice, a value that is not one of the flag's (`hasValue`).
 */
export async function checkSplit(
  split: SplitInput,
  flagKey: string,
  hasValue: (valueUlid: string) => Promise<boolean>,
  errors: FieldErrorList,
): Promise<void> {
  const total = split.shares.reduce((sum, s) => sum + s.weight, 0);
  if (total !== SPLIT_WEIGHT_TOTAL) {
    errors.add(
      'split.shares',
      `The weights of split.shares must sum to ${SPLIT_WEIGHT_TOTAL} (100 %, in thousandths of a percent); they sum to ${total}.`,
      // Each weight fits the document alone; only their sum breaks the rule.
      'invalid_combination',
    );
  }
  const seen = new Set<string>();
  for (let i = 0; i < split.shares.length; i++) {
    const { value_ulid } = split.shares[i] as SplitShareRecord;
    const field = `split.shares.${i}.value_ulid`;
    if (seen.has(value_ulid)) {
      errors.add(field, `The value ${value_ulid} is listed more than once in the split.`, 'invalid_combination');
    } else if (!(await hasValue(value_ulid))) {
      errors.add(field, `The ${field} field must name a value of flag "${flagKey}".`, 'reference_not_found');
    }
    seen.add(value_ulid);
  }
}
