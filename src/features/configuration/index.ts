import type { FeatureDeps, FeatureParts } from '../feature.js';
import { configurationController } from './controller.js';
import { ConfigurationExportService } from './export-service.js';
import { ConfigurationPlanService } from './plan-service.js';
import { ConfigurationApplyService } from './apply-service.js';

/** Flags as code: a project's configuration as one document (export, plan, apply). */
export function createConfigurationFeature(deps: FeatureDeps): FeatureParts {
  const exporter = new ConfigurationExportService(deps.knex, deps.dialect);
  const applier = new ConfigurationApplyService(deps, exporter, deps.auditWriter);
  return { managementHandlers: configurationController(exporter, new ConfigurationPlanService(exporter), applier) };
}
