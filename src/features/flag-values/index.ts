import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { flagValueHandlers } from './controller.js';
import { FlagValueService } from './service.js';
import { KnexFlagValueStore } from './store.js';

/** Values of a flag: list, create, update, delete, set default (specs/management.yaml, tag Flag values). */
export function createFlagValuesFeature(deps: FeatureDeps) {
  const service = new FlagValueService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    lookups: deps.lookups,
    store: new KnexFlagValueStore(deps.dialect),
    clock: deps.clock,
  });
  return { managementHandlers: flagValueHandlers(service) };
}
