import type { FeatureDeps } from '../feature.js';
import { rulesController } from './controller.js';
import { RulesService } from './service.js';
import { KnexRulesStore } from './store.js';

/** Targeting rules and their criteria on draft targets (listRules ... reorderRules). */
export function createRulesFeature(deps: FeatureDeps) {
  const service = new RulesService({ store: new KnexRulesStore(deps.knex, deps.dialect), clock: deps.clock });
  return { managementHandlers: rulesController(service) };
}
