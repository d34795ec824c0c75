import type { CoreDeps } from '../../core.js';
import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { KnexProjectStore } from '../projects/store.js';
import { KnexManagementTokenStore } from '../tokens/store.js';
import { environmentHandlers } from './controller.js';
import { EnvironmentService } from './service.js';
import { KnexEnvironmentStore } from './store.js';

export function buildEnvironmentService(core: CoreDeps): EnvironmentService {
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
  return { managementHandlers: environmentHandlers(buildEnvironmentService(deps)) };
}
