import type { PublicPrincipal } from '../../auth/principal.js';
import type { EnvironmentSnapshot } from '../../runtime/snapshot-cache.js';
import type { Platform } from '../../runtime/telemetry-buffer.js';

/** The platform a key serves: its kind. */
export function platformOf(principal: PublicPrincipal): Platform {
  return principal.kind;
}

/** Whether a flag is in a platform's payload (server keys see every flag). */
export function visibleOn(platform: Platform, flag: { include_in_mobile: boolean; include_in_client: boolean }): boolean {
  if (platform === 'mobile') return flag.include_in_mobile;
  if (platform === 'client') return flag.include_in_client;
  return true;
}

/** The keys of the flags a platform's payload holds, one frozen list per snapshot and platform (telemetry counts by the list). */
const visibleKeys = new WeakMap<EnvironmentSnapshot, Map<Platform, readonly string[]>>();

export function visibleKeysOf(entry: EnvironmentSnapshot, platform: Platform): readonly string[] {
  let byPlatform = visibleKeys.get(entry);
  if (!byPlatform) visibleKeys.set(entry, (byPlatform = new Map()));
  let keys = byPlatform.get(platform);
  if (!keys) {
    keys = Object.freeze(entry.config.flags.filter((f) => visibleOn(platform, f)).map((f) => f.key));
    byPlatform.set(platform, keys);
  }
  return keys;
}
