import type { components } from '../../../generated/management.js';

type ConfigurationServing = components['schemas']['ConfigurationServing'];

/** Stable JSON of a value with object keys sorted, for "is it the same" comparisons. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether two values are the same once their object keys are sorted. */
export const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** Whether two serving configurations serve the same (the publish comment does not count). */
export function sameServing(a: ConfigurationServing, b: ConfigurationServing): boolean {
  return same(servedPart(a), servedPart(b));
}

type ConfigurationSplit = NonNullable<ConfigurationServing['split']>;

/** A split as compared: an absent attribute is the identifier, like null. */
function splitPart(split: ConfigurationSplit | undefined) {
  return split === undefined
    ? null
    : { attribute: split.attribute ?? null, shares: split.shares.map((s) => ({ value: s.value, weight: s.weight })) };
}

/** What a serving configuration is compared on: the publish comment is history, not configuration. */
function servedPart(serving: ConfigurationServing) {
  return {
    value: serving.value,
    split: splitPart(serving.split),
    rules: serving.rules.map((r) => ({
      description: r.description,
      value: r.value,
      split: splitPart(r.split),
      criteria: r.criteria.map((c) => ({ ...c, sub_selector: c.sub_selector ?? null, values: c.values ?? null })),
    })),
    prerequisites: (serving.prerequisites ?? []).map((p) => ({ flag: p.flag, values: p.values })),
    rollout:
      serving.rollout === null
        ? null
        : { mode: serving.rollout.mode, percentage: serving.rollout.mode === 'manual' ? serving.rollout.percentage : null },
  };
}
