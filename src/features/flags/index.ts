import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { flagHandlers } from './controller.js';
import { environmentKeys, servingOverview } from './serving-overview.js';
import { FlagService } from './service.js';
import { KnexFlagStore } from './store.js';

/** The flag service with its serving reader (serving-overview.ts), over the pool or a transaction. */
export function buildFlagService(deps: ServiceDeps): FlagService {
  return new FlagService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    lookups: deps.lookups,
    store: new KnexFlagStore(deps.dialect),
    clock: deps.clock,
    serving: {
      overview: (projectUlid, flags, staleDays, now, visible) => servingOverview(deps.knex, projectUlid, flags, staleDays, now, visible),
      environmentKeys: (projectUlid, visible) => environmentKeys(deps.knex, projectUlid, visible),
    },
  });
}

/** Flags of a project: list, create, read, update, delete, bulk delete (specs/management.yaml, tag Flags). */
export function createFlagsFeature(deps: FeatureDeps) {
  const service = buildFlagService(deps);
  return { managementHandlers: flagHandlers(service), services: { flags: service } };
}
