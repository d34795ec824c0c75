import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { KnexProjectStore } from '../projects/store.js';
import { KnexManagementTokenStore } from '../tokens/store.js';
import { environmentHandlers } from './controller.js';
import { EnvironmentService } from './service.js';
import { KnexEnvironmentStore } from './store.js';

/** The environment service, over the pool or a transaction. */
export function buildEnvironmentService(core: Pick<ServiceDeps, 'knex' | 'clock'>): EnvironmentService {
  return new EnvironmentService({
    db: core.knex,
    tx: knexTransactor(core.knex),
    projects: new KnexProjectStore(),
    environments: new KnexEnvironmentStore(),
    tokens: new KnexManagementTokenStore(),
    clock: core.clock,
  });
}

export function createEnvironmentsFeature(deps: FeatureDeps) {
  const service = buildEnvironmentService(deps);
  return { managementHandlers: environmentHandlers(service), services: { environments: service } };
}
