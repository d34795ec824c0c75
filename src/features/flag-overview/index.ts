import type { PreviewService } from '../evaluation/preview-service.js';
import { buildFlagService } from '../flags/index.js';
import { buildInsightsService } from '../insights/index.js';
import { buildPrerequisitesService } from '../prerequisites/index.js';
import { buildRulesService } from '../rules/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { buildTargetServices } from '../targets/services.js';
import { flagOverviewHandlers } from './controller.js';
import { FlagOverviewService } from './service.js';

/** What the overview takes from the evaluation feature: its preview, on the snapshots it holds. */
export type OverviewPreview = Pick<PreviewService, 'explained'>;

/** The overview over the pool, each part read through the service its own feature's builder makes. */
export function buildFlagOverviewService(deps: ServiceDeps, preview: OverviewPreview): FlagOverviewService {
  return new FlagOverviewService({
    knex: deps.knex,
    lookups: deps.lookups,
    flags: buildFlagService(deps),
    targets: buildTargetServices(deps),
    rules: buildRulesService(deps),
    prerequisites: buildPrerequisitesService(deps),
    insights: buildInsightsService(deps),
    preview,
  });
}

/**
 * The console's flag page, one environment in one read (getFlagEnvironmentOverview). Built by the
 * evaluation feature, which holds the snapshots its "served" part is evaluated on.
 */
export function createFlagOverviewHandlers(deps: ServiceDeps, preview: OverviewPreview) {
  return flagOverviewHandlers(buildFlagOverviewService(deps, preview));
}
