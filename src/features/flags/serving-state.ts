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
  /** Rules of the newest published target (0 when nothing is published). */
  rulesCount: number;
  /** A rollout of the newest published target is active or paused. */
  rolling: boolean;
}

/**
 * The one definition of on and off (specs/management.yaml, FlagServingState.on): off when every
 * context gets the off value, on otherwise. A flag with nothing to serve is off.
 */
export function isOn(type: FlagType, defaultDisplay: string | null, served: ServedShape): boolean {
  if (served.value === null) return false;
  const everyoneGetsTheBase = served.rulesCount === 0 && !served.rolling;
  return !(everyoneGetsTheBase && served.value === offValueOf(type, defaultDisplay));
}
