import type { FeatureDeps, FeatureParts } from '../feature.js';
import { flagHandlers } from './controller.js';
import { FlagService } from './service.js';
import { KnexFlagStore } from './store.js';

/** Flags of a project: list, create, read, update, delete, bulk delete (SPEC.md section 4.2). */
export function createFlagsFeature(deps: FeatureDeps): FeatureParts {
  const service = new FlagService(new KnexFlagStore(deps.knex, deps.dialect), deps.clock);
  return { managementHandlers: flagHandlers(service) };
}
