import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { prerequisitesController } from './controller.js';
import { PrerequisitesService } from './service.js';
import { KnexPrerequisitesStore } from './store.js';

/** The prerequisites service, over the pool or a transaction. */
export function buildPrerequisitesService(deps: ServiceDeps): PrerequisitesService {
  return new PrerequisitesService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    store: new KnexPrerequisitesStore(deps.dialect),
  });
}

/** Prerequisites of draft targets (listTargetPrerequisites, replaceTargetPrerequisites). */
export function createPrerequisitesFeature(deps: FeatureDeps) {
  const service = buildPrerequisitesService(deps);
  return { managementHandlers: prerequisitesController(service), services: { prerequisites: service } };
}
