import type { FeatureDeps } from '../feature.js';
import type { PreviewService } from '../evaluation/preview-service.js';
import { buildFlagService } from '../flags/index.js';
import { InsightsService } from '../insights/service.js';
import { KnexInsightsStore } from '../insights/store.js';
import { PrerequisitesService } from '../prerequisites/service.js';
import { KnexPrerequisitesStore } from '../prerequisites/store.js';
import { RulesService } from '../rules/service.js';
import { KnexRulesStore } from '../rules/store.js';
import { knexTransactor } from '../shared/transactions.js';
import { buildTargetServices } from '../targets/services.js';
import { KnexTargetStore } from '../targets/store.js';
import { flagOverviewHandlers } from './controller.js';
import { FlagOverviewService } from './service.js';

/**
 * The console's flag page, one environment in one read (getFlagEnvironmentOverview). Built by the
 * evaluation feature, which holds the snapshots its "served" part is evaluated on.
 */
export function createFlagOverviewHandlers(deps: FeatureDeps, preview: Pick<PreviewService, 'explained'>) {
  const tx = knexTransactor(deps.knex);
  const service = new FlagOverviewService({
    knex: deps.knex,
    lookups: deps.lookups,
    flags: buildFlagService(deps),
    targets: buildTargetServices({
      db: deps.knex,
      tx,
      store: new KnexTargetStore(deps.dialect),
      lookups: deps.lookups,
      clock: deps.clock,
      rolloutStepMs: deps.config.rolloutStepMs,
    }),
    rules: new RulesService({ db: deps.knex, tx, store: new KnexRulesStore(deps.dialect), clock: deps.clock }),
    prerequisites: new PrerequisitesService({ db: deps.knex, tx, store: new KnexPrerequisitesStore(deps.dialect) }),
    insights: new InsightsService({ store: new KnexInsightsStore(deps.knex), clock: deps.clock }),
    preview,
  });
  return flagOverviewHandlers(service);
}
