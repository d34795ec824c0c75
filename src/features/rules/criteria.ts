/**
 * Criteria: the conditions of targeting rules and of segment rules (specs/management.yaml, schema
 * section 4). Validation here covers what the OpenAPI body schema cannot express; every refusal
 * is field-keyed (`criteria.0.sub_selector`, `rules.1.criteria.0.values`...). Fields that are
 * valid alone but not together are `invalid_combination`.
 */
import type { FieldErrorList } from '../../http/errors.js';
import { parseNumeric } from '../../engine/numeric.js';
import { typedValueProblem } from '../../engine/typed-comparers.js';
import { COMPARERS, type Comparer } from '../../engine/types.js';

export type Selector = 'attribute' | 'context' | 'segment';

export const SELECTORS: readonly Selector[] = ['attribute', 'context', 'segment'];

/** Allowed on every selector. */
export const IDENTITY_COMPARERS = ['equal', 'notequal', 'in', 'notin'] as const;

/** Every comparer, as the evaluation engine defines them; all but the identity ones are attribute-only. */
export { COMPARERS };
export type { Comparer };

/** Allowed on the attribute selector only. */
export const ATTRIBUTE_ONLY_COMPARERS: readonly Comparer[] = COMPARERS.filter(
  (c) => !(IDENTITY_COMPARERS as readonly string[]).includes(c),
);

/** Comparers that test presence and take no values. */
export const VALUELESS_COMPARERS: ReadonlySet<string> = new Set(['isnull', 'notnull']);

/** Comparers whose values must be numbers (the engine's number grammar). */
export const NUMERIC_COMPARERS: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte']);

/** A criterion as a request body carries it (already shaped by the document's schema). */
export interface CriterionInput {
  selector: string;
  comparer: string;
  sub_selector?: string | null;
  values?: string[];
}

/** A criterion after validation: what is stored and what the engine compiles. */
export interface NormalisedCriterion {
  selector: Selector;
  sub_selector: string | null;
  comparer: Comparer;
  /** Empty for isnull / notnull. */
  values: string[];
}

export function comparerAllowed(selector: string, comparer: string): boolean {
  if ((IDENTITY_COMPARERS as readonly string[]).includes(comparer)) return SELECTORS.includes(selector as Selector);
  if ((ATTRIBUTE_ONLY_COMPARERS as readonly string[]).includes(comparer)) return selector === 'attribute';
  return false;
}

export interface CriteriaCheck {
  /** Field prefix, e.g. `criteria` or `rules.2.criteria`. */
  prefix: string;
  /** False inside segments: a segment cannot be defined through segments. */
  allowSegmentSelector: boolean;
  errors: FieldErrorList;
}

/** A rule of how fields combine: every field is valid alone (the document checked that). */
function add(errors: FieldErrorList, field: string, message: string): void {
  errors.add(field, message, 'invalid_combination');
}

/** The document's own rules (enums), checked again for callers that skip the document. */
function invalid(errors: FieldErrorList, field: string, message: string): void {
  errors.add(field, message);
}

/**
 * Checks a list of criteria and returns them normalised (sub_selector null when absent, values []
 * for isnull/notnull). Problems are added to `check.errors`; the caller throws when any exist.
 * Segment keys are not checked here (they need the database): see `segmentKeysOf`.
 */
export function normaliseCriteria(criteria: readonly CriterionInput[], check: CriteriaCheck): NormalisedCriterion[] {
  const out: NormalisedCriterion[] = [];
  criteria.forEach((c, index) => {
    const at = `${check.prefix}.${index}`;
    const selector = c.selector;
    const comparer = c.comparer;
    if (!SELECTORS.includes(selector as Selector)) {
      invalid(check.errors, `${at}.selector`, `The ${at}.selector field must be one of: ${SELECTORS.join(', ')}.`);
    } else if (selector === 'segment' && !check.allowSegmentSelector) {
      invalid(check.errors, `${at}.selector`, `The ${at}.selector field must be attribute or context inside a segment.`);
    }
    if (!(COMPARERS as readonly string[]).includes(comparer)) {
      invalid(check.errors, `${at}.comparer`, `The ${at}.comparer field must be one of: ${COMPARERS.join(', ')}.`);
    } else if (SELECTORS.includes(selector as Selector) && !comparerAllowed(selector, comparer)) {
      add(
        check.errors,
        `${at}.comparer`,
        `The comparer ${comparer} is not allowed with selector ${selector}; allowed: ${IDENTITY_COMPARERS.join(', ')}.`,
      );
    }

    const sub = c.sub_selector ?? null;
    if (selector === 'attribute' && (sub === null || sub === '')) {
      add(check.errors, `${at}.sub_selector`, `The ${at}.sub_selector field is required when selector is attribute.`);
    }
    if (selector === 'segment' && sub !== null) {
      add(check.errors, `${at}.sub_selector`, `The ${at}.sub_selector field must be omitted when selector is segment.`);
    }
    if (selector === 'context' && sub === '') {
      add(check.errors, `${at}.sub_selector`, `The ${at}.sub_selector field must not be empty (omit it or send null).`);
    }

    const values = c.values;
    if (VALUELESS_COMPARERS.has(comparer)) {
      if (values !== undefined) {
        add(check.errors, `${at}.values`, `The ${at}.values field must be omitted when comparer is ${comparer}.`);
      }
    } else if (values === undefined || values.length === 0) {
      add(check.errors, `${at}.values`, `The ${at}.values field must contain at least one value for comparer ${comparer}.`);
    } else if (NUMERIC_COMPARERS.has(comparer)) {
      values.forEach((v, i) => {
        if (Number.isNaN(parseNumeric(v))) {
          add(check.errors, `${at}.values.${i}`, `The ${at}.values.${i} field must be a number for comparer ${comparer}.`);
        }
      });
    } else {
      // semver_*, before, after, matches: each value must parse as what the comparer reads
      values.forEach((v, i) => {
        const problem = typedValueProblem(comparer, v);
        if (problem !== null) add(check.errors, `${at}.values.${i}`, `The ${at}.values.${i} field ${problem} for comparer ${comparer}.`);
      });
    }

    out.push({
      selector: selector as Selector,
      sub_selector: sub === '' ? null : sub,
      comparer: comparer as Comparer,
      values: VALUELESS_COMPARERS.has(comparer) ? [] : [...(values ?? [])],
    });
  });
  return out;
}

/** Segment keys named by segment criteria, with the field of each occurrence. */
export function segmentKeysOf(criteria: readonly NormalisedCriterion[], prefix: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  criteria.forEach((c, index) => {
    if (c.selector !== 'segment') return;
    c.values.forEach((key, i) => {
      const fields = keys.get(key) ?? [];
      fields.push(`${prefix}.${index}.values.${i}`);
      keys.set(key, fields);
    });
  });
  return keys;
}
