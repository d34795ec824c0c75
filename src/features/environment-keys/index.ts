import type { CoreDeps } from '../../core.js';
import type { Stage } from '../../http/openapi/router.js';
import { refreshBeforeAnswering } from '../../http/refresh-after-write.js';
import { KnexEnvironmentStore } from '../environments/store.js';
import { refreshBudgetMs, type FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { KnexProjectStore } from '../projects/store.js';
import { environmentKeyHandlers } from './controller.js';
import { EnvironmentKeyService } from './service.js';
import { KnexEnvironmentKeyStore } from './store.js';

export function buildEnvironmentKeyService(core: Pick<CoreDeps, 'knex' | 'clock'>): EnvironmentKeyService {
  return new EnvironmentKeyService({
    db: core.knex,
    tx: knexTransactor(core.knex),
    projects: new KnexProjectStore(),
    environments: new KnexEnvironmentStore(),
    keys: new KnexEnvironmentKeyStore(),
    clock: core.clock,
  });
}

/**
 * Keys are served from the key cache (src/auth/environment-key-cache.ts). Any management write
 * can create or remove keys (key routes, new projects and environments, deletions), so after one
 * succeeds this instance refreshes the cache before answering; other instances see the change
 * at their next poll.
 */
export function createEnvironmentKeysFeature(deps: FeatureDeps) {
  const refreshKeysAfterWrite: Stage = async (ctx, next) => {
    await next();
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.status >= 400) return;
    await refreshBeforeAnswering(
      ctx,
      refreshBudgetMs(deps),
      () => deps.keyCache.refreshIfChanged(),
      (err) => deps.logger.error({ err }, 'environment keys could not be refreshed'),
    );
  };
  return {
    managementHandlers: environmentKeyHandlers(buildEnvironmentKeyService(deps)),
    managementStages: { aroundHandler: [refreshKeysAfterWrite] },
  };
}
