import { knexTransactor } from '../shared/transactions.js';
import type { FeatureDeps } from '../feature.js';
import { configurationController } from './controller.js';
import { ConfigurationExportService } from './export-service.js';
import { ConfigurationPlanService } from './plan-service.js';
import { ConfigurationApplyService } from './apply-service.js';
import { PromoteService } from './promote-service.js';
import { RestoreService } from './restore-service.js';
import { ServeService } from './serve-service.js';
import { SwitchService } from './switch-service.js';

/** Flags as code: a project's configuration as one document (export, plan, apply, promote, serve, restore, switch). */
export function createConfigurationFeature(deps: FeatureDeps) {
  const exporter = new ConfigurationExportService({ knex: deps.knex, dialect: deps.dialect });
  const tx = knexTransactor(deps.knex);
  return {
    managementHandlers: configurationController(
      {
        exporter,
        planner: new ConfigurationPlanService({ exporter }),
        applier: new ConfigurationApplyService({ core: deps, tx, exporter }),
        promoter: new PromoteService({ core: deps, tx, exporter }),
        server: new ServeService({ core: deps, tx }),
        restorer: new RestoreService({ core: deps, tx }),
        switcher: new SwitchService({ core: deps, tx }),
      },
      deps.config.rolloutStepMs,
    ),
  };
}
