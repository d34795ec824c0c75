import type { FeatureDeps, FeatureParts } from '../feature.js';
import { KnexSegmentsStore } from '../segments/store.js';
import { configurationController } from './controller.js';
import { ConfigurationExportStore } from './export-store.js';
import { ConfigurationExportService } from './export-service.js';
import { ConfigurationPlanService } from './plan-service.js';

/** Flags as code: a project's configuration as one document (export, plan). */
export function createConfigurationFeature(deps: FeatureDeps): FeatureParts {
  const exporter = new ConfigurationExportService(new ConfigurationExportStore(deps.knex), new KnexSegmentsStore(deps.knex, deps.dialect));
  return { managementHandlers: configurationController(exporter, new ConfigurationPlanService(exporter)) };
}
