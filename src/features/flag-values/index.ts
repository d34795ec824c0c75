import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { flagValueHandlers } from './controller.js';
import { FlagValueService } from './service.js';
import { KnexFlagValueStore } from './store.js';

/** The flag value service, over the pool or a transaction. */
export function buildFlagValueService(deps: ServiceDeps): FlagValueService {
  return new FlagValueService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    lookups: deps.lookups,
    store: new KnexFlagValueStore(deps.dialect),
    clock: deps.clock,
  });
}

/** Values of a flag: list, create, update, delete, set default (specs/management.yaml, tag Flag values). */
export function createFlagValuesFeature(deps: FeatureDeps) {
  const service = buildFlagValueService(deps);
  return { managementHandlers: flagValueHandlers(service), services: { values: service } };
}
