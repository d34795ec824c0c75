import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { rulesController } from './controller.js';
import { RulesService } from './service.js';
import { KnexRulesStore } from './store.js';

/** Targeting rules and their criteria on draft targets (listRules ... reorderRules). */
export function createRulesFeature(deps: FeatureDeps) {
  const service = new RulesService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    store: new KnexRulesStore(deps.dialect),
    clock: deps.clock,
  });
  return { managementHandlers: rulesController(service) };
}
