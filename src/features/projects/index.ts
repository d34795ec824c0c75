import { buildEnvironmentService } from '../environments/index.js';
import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { KnexEnvironmentStore } from '../environments/store.js';
import { KnexManagementTokenStore } from '../tokens/store.js';
import { knexTransactor } from '../shared/transactions.js';
import { projectHandlers } from './controller.js';
import { ProjectService } from './service.js';
import { KnexProjectStore } from './store.js';

/** The project service (its environments through the environments feature's own builder), over the pool or a transaction. */
export function buildProjectService(deps: Pick<ServiceDeps, 'knex' | 'clock'>): ProjectService {
  return new ProjectService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    projects: new KnexProjectStore(),
    environments: buildEnvironmentService(deps),
    environmentStore: new KnexEnvironmentStore(),
    tokens: new KnexManagementTokenStore(),
    clock: deps.clock,
  });
}

export function createProjectsFeature(deps: FeatureDeps) {
  const service = buildProjectService(deps);
  return { managementHandlers: projectHandlers(service), services: { projects: service } };
}
