import type { Schemas } from '../api/client';

type Comparer = Schemas['Comparer'];

/** How each comparer reads in a sentence. */
export const comparerText: Record<Comparer, string> = {
  equal: 'equals',
  notequal: 'does not equal',
  in: 'is one of',
  notin: 'is not one of',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  isnull: 'is absent',
  notnull: 'is present',
  contains: 'contains',
  notcontains: 'does not contain',
  startswith: 'starts with',
  endswith: 'ends with',
  notstartswith: 'does not start with',
  notendswith: 'does not end with',
  semver_eq: 'is version',
  semver_lt: 'is a version below',
  semver_gt: 'is a version above',
  semver_lte: 'is a version at most',
  semver_gte: 'is a version at least',
  before: 'is before',
  after: 'is after',
  matches: 'matches the pattern',
};

/** A criterion as a sentence: "attribute plan is one of pro, enterprise". */
export function criterionText(c: { selector: string; sub_selector?: string | null; comparer: Comparer; values?: string[] }): string {
  const subject =
    c.selector === 'attribute'
      ? `attribute ${c.sub_selector ?? ''}`
      : c.selector === 'context'
        ? `context identifier${c.sub_selector ? ` (type ${c.sub_selector})` : ''}`
        : 'segment';
  return `${subject} ${comparerText[c.comparer]}${c.comparer === 'isnull' || c.comparer === 'notnull' ? '' : ` ${(c.values ?? []).join(', ')}`}`;
}

/** A rule's criteria as one sentence, as the API lists them (all must match). */
export function ruleCriteriaText(rule: Schemas['Rule']): string {
  return rule.criteria.data.map((c) => criterionText({ ...c, values: c.values.data.map((v) => v.value) })).join(' and ');
}
