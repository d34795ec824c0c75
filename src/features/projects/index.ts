import type { CoreDeps } from '../../core.js';
import { EnvironmentService } from '../environments/service.js';
import { KnexEnvironmentStore } from '../environments/store.js';
import type { FeatureDeps } from '../feature.js';
import { KnexManagementTokenStore } from '../tokens/store.js';
import { knexTransactor } from '../shared/transactions.js';
import { projectHandlers } from './controller.js';
import { ProjectService } from './service.js';
import { KnexProjectStore } from './store.js';

/** Builds the project service on the database (the feature below and first start use it). */
export function buildProjectService(core: CoreDeps): ProjectService {
  const tx = knexTransactor(core.knex);
  const projects = new KnexProjectStore();
  const tokens = new KnexManagementTokenStore();
  const environmentStore = new KnexEnvironmentStore();
  const environments = new EnvironmentService({ db: core.knex, tx, projects, environments: environmentStore, tokens, clock: core.clock });
  return new ProjectService({ db: core.knex, tx, projects, environments, environmentStore, tokens, clock: core.clock });
}

export function createProjectsFeature(deps: FeatureDeps) {
  return { managementHandlers: projectHandlers(buildProjectService(deps)) };
}
