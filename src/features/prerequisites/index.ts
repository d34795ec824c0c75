import type { FeatureDeps } from '../feature.js';
import { prerequisitesController } from './controller.js';
import { PrerequisitesService } from './service.js';
import { KnexPrerequisitesStore } from './store.js';

/** Prerequisites of draft targets (listTargetPrerequisites, replaceTargetPrerequisites). */
export function createPrerequisitesFeature(deps: FeatureDeps) {
  const service = new PrerequisitesService({ store: new KnexPrerequisitesStore(deps.knex, deps.dialect) });
  return { managementHandlers: prerequisitesController(service) };
}
