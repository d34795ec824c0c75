import type { FlagType } from './store-types.js';

/**
 * The value a flag serves to everyone when it is off: `false` for a boolean flag, the default
 * value for the other types (null when the flag has no values).
 */
export function offValueOf(type: FlagType, defaultDisplay: string | null): string | null {
  return type === 'boolean' ? 'false' : defaultDisplay;
}

/** What an environment serves, as far as on and off are concerned. */
export interface ServedShape {
  /** The base value served (the newest published target's, else the default); null with none. */
  value: string | null;
  /**
   * Every other value the newest published target can serve some context: the shares of its
   * base split and of its rules' splits, its rules' values, and the flag's default when it has
   * prerequisites (a prerequisite that does not hold serves the default). Empty with no target.
   */
  otherValues: readonly string[];
  /** A rollout of the newest published target is active or paused. */
  rolling: boolean;
}

/**
 * The one definition of on and off (specs/management.yaml, FlagServingState.on): off when every
 * context gets the off value, on otherwise. A flag with nothing to serve is off. A rollout in
 * progress counts as on: contexts on both sides of it may get different values.
 */
export function isOn(type: FlagType, defaultDisplay: string | null, served: ServedShape): boolean {
  if (served.value === null) return false;
  if (served.rolling) return true;
  const off = offValueOf(type, defaultDisplay);
  return served.value !== off || served.otherValues.some((value) => value !== off);
}

/** The values besides its base a target's serving can give (ServedShape.otherValues), by display. */
export function otherValuesOf(
  serving: {
    split?: { shares: ReadonlyArray<{ value: string; weight: number }> } | null;
    rules: ReadonlyArray<{ value: string; split?: { shares: ReadonlyArray<{ value: string; weight: number }> } | null }>;
    prerequisites?: readonly unknown[];
  },
  defaultDisplay: string | null,
): string[] {
  const shares = (split: { shares: ReadonlyArray<{ value: string; weight: number }> } | null | undefined) =>
    (split?.shares ?? []).filter((s) => s.weight > 0).map((s) => s.value);
  const values = [...shares(serving.split), ...serving.rules.flatMap((rule) => [rule.value, ...shares(rule.split)])];
  if ((serving.prerequisites?.length ?? 0) > 0 && defaultDisplay !== null) values.push(defaultDisplay);
  return values;
}

/**
 * How a published target chooses what a context gets (specs/management.yaml, FlagServes): by its
 * rules, by its base split over more than one value, or one value for every context.
 */
export function servesOf(
  rulesCount: number,
  baseSplit: { shares: ReadonlyArray<{ value: string; weight: number }> } | null | undefined,
): 'value' | 'rules' | 'split' {
  if (rulesCount > 0) return 'rules';
  const shared = new Set((baseSplit?.shares ?? []).filter((s) => s.weight > 0).map((s) => s.value));
  return shared.size > 1 ? 'split' : 'value';
}
