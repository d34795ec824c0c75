import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { prerequisitesController } from './controller.js';
import { PrerequisitesService } from './service.js';
import { KnexPrerequisitesStore } from './store.js';

/** Prerequisites of draft targets (listTargetPrerequisites, replaceTargetPrerequisites). */
export function createPrerequisitesFeature(deps: FeatureDeps) {
  const service = new PrerequisitesService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    store: new KnexPrerequisitesStore(deps.dialect),
  });
  return { managementHandlers: prerequisitesController(service) };
}
