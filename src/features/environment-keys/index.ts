import type { CoreDeps } from '../../core.js';
import { KnexEnvironmentStore } from '../environments/store.js';
import type { FeatureDeps, FeatureParts } from '../feature.js';
import { knexTransactor } from '../projects/admin-common.js';
import { KnexProjectStore } from '../projects/store.js';
import { environmentKeyHandlers } from './controller.js';
import { EnvironmentKeyService } from './service.js';
import { KnexEnvironmentKeyStore } from './store.js';

export function buildEnvironmentKeyService(core: CoreDeps): EnvironmentKeyService {
  return new EnvironmentKeyService({
    db: core.knex,
    tx: knexTransactor(core.knex),
    projects: new KnexProjectStore(),
    environments: new KnexEnvironmentStore(),
    keys: new KnexEnvironmentKeyStore(),
    clock: core.clock,
  });
}

/** Revoked keys stop working through the key cache's poll (src/auth/environment-key-cache.ts). */
export function createEnvironmentKeysFeature(deps: FeatureDeps): FeatureParts {
  return { managementHandlers: environmentKeyHandlers(buildEnvironmentKeyService(deps)) };
}
