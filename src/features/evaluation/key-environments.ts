import type { PublicPrincipal } from '../../auth/principal.js';
import { UnauthorizedError, publicMessages } from '../../http/errors.js';
import type { EnvironmentSnapshot, SnapshotCache } from '../../runtime/snapshot-cache.js';

/** The snapshot of an environment key's environment, for the services of the serving path. */
export class KeyEnvironments {
  constructor(private readonly cache: SnapshotCache) {}

  /** The key's environment if it is in memory now (else `of` loads it). */
  held(principal: PublicPrincipal): EnvironmentSnapshot | undefined {
    return this.cache.get(principal.environmentUlid);
  }

  /** The key's environment (from memory; an environment created moments ago is loaded once). */
  async of(principal: PublicPrincipal): Promise<EnvironmentSnapshot> {
    const entry = this.held(principal) ?? (await this.cache.getOrLoad(principal.environmentUlid));
    // The key outlived its environment (deleted moments ago): the key is no longer valid.
    if (!entry) throw new UnauthorizedError(publicMessages.invalidKey, 'auth.invalid_token');
    return entry;
  }
}
