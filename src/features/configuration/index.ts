import type { FeatureDeps } from '../feature.js';
import { KnexSegmentsStore } from '../segments/store.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { ConfigurationApplyService } from './apply-service.js';
import { configurationController } from './controller.js';
import { ConfigurationExportService } from './export-service.js';
import { ConfigurationExportStore } from './export-store.js';
import { ConfigurationPlanService } from './plan-service.js';
import { PromoteService } from './promote-service.js';
import { RestoreService } from './restore-service.js';
import { ServeService } from './serve-service.js';
import { SwitchService } from './switch-service.js';

/**
 * The flags-as-code services, over the pool (the feature, VEXIL_IMPORT_FILE) or a transaction
 * (the demo flags of a first start); each request's changes run over the feature services of
 * transactional-services.ts.
 */
export function buildConfigurationServices(deps: ServiceDeps) {
  const tx = knexTransactor(deps.knex);
  const exporter = new ConfigurationExportService({
    db: deps.knex,
    lookups: deps.lookups,
    store: new ConfigurationExportStore(),
    segments: new KnexSegmentsStore(deps.dialect),
  });
  return {
    exporter,
    planner: new ConfigurationPlanService({ exporter }),
    applier: new ConfigurationApplyService({ core: deps, tx, exporter }),
    promoter: new PromoteService({ core: deps, tx, exporter }),
    server: new ServeService({ core: deps, tx }),
    restorer: new RestoreService({ core: deps, tx }),
    switcher: new SwitchService({ core: deps, tx }),
  };
}

export type ConfigurationServices = ReturnType<typeof buildConfigurationServices>;

/** Flags as code: a project's configuration as one document (export, plan, apply, promote, serve, restore, switch). */
export function createConfigurationFeature(deps: FeatureDeps) {
  const services = buildConfigurationServices(deps);
  return { managementHandlers: configurationController(services, deps.config.rolloutStepMs), services: { configuration: services } };
}
