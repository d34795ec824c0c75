import type { CoreDeps } from '../../core.js';
import { KnexEnvironmentStore } from '../environments/store.js';
import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { KnexProjectStore } from '../projects/store.js';
import { managementTokenHandlers } from './controller.js';
import { ManagementTokenService } from './service.js';
import { KnexManagementTokenStore } from './store.js';

export function buildManagementTokenService(core: Pick<CoreDeps, 'knex' | 'clock'>): ManagementTokenService {
  return new ManagementTokenService({
    db: core.knex,
    tx: knexTransactor(core.knex),
    projects: new KnexProjectStore(),
    environments: new KnexEnvironmentStore(),
    tokens: new KnexManagementTokenStore(),
    clock: core.clock,
  });
}

export function createTokensFeature(deps: FeatureDeps) {
  return { managementHandlers: managementTokenHandlers(buildManagementTokenService(deps)) };
}
