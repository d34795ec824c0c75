import type { ManagementPrincipal } from '../../auth/principal.js';
import { NotFoundError } from '../../http/errors.js';
import type { Auditor } from '../shared/transactions.js';
import type { ConfigurationExportService } from './export-service.js';
import { applyingAs, refusalsOf } from './refusals.js';
import { absentProject, normaliseConfiguration, planConfiguration, type ConfigurationPlan, type ProjectConfiguration } from './plan.js';

/** What ConfigurationPlanService is built from. */
export interface ConfigurationPlanServiceDeps {
  /** Reads the project as it is now, to plan against. */
  exporter: ConfigurationExportService;
}

/** Plans a configuration file against the project as it is now, changing nothing. */
export class ConfigurationPlanService {
  constructor(private readonly deps: ConfigurationPlanServiceDeps) {}

  async plan(
    principal: ManagementPrincipal,
    projectKey: string,
    desired: ProjectConfiguration,
    options: { prune: boolean; comment?: string; confirmed?: readonly string[] },
    audit: Pick<Auditor, 'describe'>,
  ): Promise<ConfigurationPlan> {
    // A project that does not exist yet is planned as apply would make it: created by the file.
    let newProject = false;
    const current = await this.deps.exporter
      .export(principal, projectKey, { purpose: 'Planning a configuration file' }, audit)
      .catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
        newProject = true;
        return absentProject(projectKey, desired);
      });
    // Reading the project described the request as an export; it is a plan, refused or not.
    audit.describe({ action: 'project.planned' });
    const { configuration, errors } = normaliseConfiguration(desired, current);
    errors.check();
    const plan = planConfiguration(current, configuration, { ...options, newProject });
    // What apply would refuse, by the same rules and the same stored settings (refusals.ts).
    return { ...plan, refusals: refusalsOf(current, plan.changes, applyingAs(principal, options)) };
  }
}
