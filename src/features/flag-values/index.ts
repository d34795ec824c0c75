import type { FeatureDeps } from '../feature.js';
import { flagValueHandlers } from './controller.js';
import { FlagValueService } from './service.js';
import { KnexFlagValueStore } from './store.js';

/** Values of a flag: list, create, update, delete, set default (specs/management.yaml, tag Flag values). */
export function createFlagValuesFeature(deps: FeatureDeps) {
  const service = new FlagValueService({ store: new KnexFlagValueStore(deps.knex, deps.dialect), clock: deps.clock });
  return { managementHandlers: flagValueHandlers(service) };
}
