import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { rulesController } from './controller.js';
import { RulesService } from './service.js';
import { KnexRulesStore } from './store.js';

/** The rules service, over the pool or a transaction. */
export function buildRulesService(deps: ServiceDeps): RulesService {
  return new RulesService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    store: new KnexRulesStore(deps.dialect),
    clock: deps.clock,
  });
}

/** Targeting rules and their criteria on draft targets (listRules ... reorderRules). */
export function createRulesFeature(deps: FeatureDeps) {
  const service = buildRulesService(deps);
  return { managementHandlers: rulesController(service), services: { rules: service } };
}
