import type { FeatureDeps } from '../feature.js';
import { flagHandlers } from './controller.js';
import { environmentKeys, servingOverview } from './serving-overview.js';
import { FlagService } from './service.js';
import { KnexFlagStore } from './store.js';

/** The flag service with its serving reader (serving-overview.ts), over the pool. */
export function buildFlagService(deps: Pick<FeatureDeps, 'knex' | 'dialect' | 'clock'>): FlagService {
  return new FlagService({
    store: new KnexFlagStore(deps.knex, deps.dialect),
    clock: deps.clock,
    serving: {
      overview: (projectUlid, flags, staleDays, now) => servingOverview(deps.knex, projectUlid, flags, staleDays, now),
      environmentKeys: (projectUlid) => environmentKeys(deps.knex, projectUlid),
    },
  });
}

/** Flags of a project: list, create, read, update, delete, bulk delete (specs/management.yaml, tag Flags). */
export function createFlagsFeature(deps: FeatureDeps) {
  return { managementHandlers: flagHandlers(buildFlagService(deps)) };
}
