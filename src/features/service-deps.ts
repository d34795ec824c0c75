import type { CoreDeps } from '../core.js';
import type { LookupStore } from './shared/lookup.js';

/**
 * What a feature's service builder takes: the core, whose `knex` is the pool (the composition
 * root, the flag page's overview) or one transaction (configuration/transactional-services.ts),
 * and the path lookups. Each builder makes its transactor, stores and service from it, so a
 * dependency added to a service is added wherever the service is built.
 */
export interface ServiceDeps extends CoreDeps {
  lookups: LookupStore;
}
