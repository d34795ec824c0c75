import { hasScope, type ManagementPrincipal, type Scope } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import type { ConfigurationExportService } from './export-service.js';
import {
  absentProject,
  normaliseConfiguration,
  planConfiguration,
  type ConfigurationChange,
  type ConfigurationPlan,
  type ProjectConfiguration,
} from './plan.js';
import { servingStep } from './rollout-change.js';
import { applyingAs, refuse, refusalsOf } from './refusals.js';
import { ServingWriter, type Serving } from './serving-writer.js';
import { actingContext, type ActingContext } from './transactional-services.js';

export interface ApplyOptions {
  prune: boolean;
  /** Publish comment for serving changes whose file entry has none. */
  comment?: string;
  /** Keys of the `confirmation_required` environments a person in the console typed to confirm. */
  confirmed?: string[];
}

/** The scope each kind of change needs beyond the operation's own flags:write. */
const scopeOf: Record<ConfigurationChange['kind'], Scope> = {
  project: 'config:write',
  environment: 'config:write',
  segment: 'targets:write',
  flag: 'flags:write',
  flag_value: 'flags:write',
  serving: 'targets:write',
};

/** What ConfigurationApplyService is built from. */
export interface ConfigurationApplyServiceDeps {
  core: CoreDeps;
  /** The request's one transaction (retried on deadlock), over which the feature services are built. */
  tx: Transactor;
  /** Reads the project as it is, inside the apply's transaction. */
  exporter: ConfigurationExportService;
}

/**
 * Applies a configuration file: exactly the changes its plan lists, through the same services the
 * individual operations use (publishing through the normal publish path, so comment and
 * confirmation rules hold), all in one transaction. Each change is audited as its own action with
 * the apply's request as the actor's; applying the same file again changes nothing.
 */
export class ConfigurationApplyService {
  constructor(private readonly deps: ConfigurationApplyServiceDeps) {}

  async apply(
    principal: ManagementPrincipal,
    projectKey: string,
    desired: ProjectConfiguration,
    options: ApplyOptions,
    audit: Auditor,
  ): Promise<ConfigurationPlan> {
    if (desired.project?.key !== projectKey) {
      throw ValidationError.field(
        'project.key',
        `The file describes project "${desired.project?.key}", not "${projectKey}".`,
        'invalid_combination',
      );
    }
    return this.deps.tx.transaction(async (trx) => {
      const acting = actingContext(trx, this.deps.core, principal, projectKey, audit);
      // The plan is made inside the transaction, so it describes exactly what is changed.
      // A new instance: the file creates its project, the plan's first change (an administrator's
      // token without grants can).
      let newProject = false;
      const current = await this.deps.exporter
        .export(principal, projectKey, { purpose: 'Applying a configuration file', db: trx }, audit)
        .catch((error: unknown) => {
          if (!(error instanceof NotFoundError)) throw error;
          newProject = true;
          return absentProject(projectKey, desired);
        });
      // Reading the project described the request as an export; it is an apply, refused or not.
      audit.describe({ action: 'project.applied' });
      const { configuration, errors } = normaliseConfiguration(desired, current);
      errors.check();
      const plan = planConfiguration(current, configuration, { ...options, newProject });
      for (const change of plan.changes) {
        if (!hasScope(principal, scopeOf[change.kind])) {
          throw new ForbiddenError(
            `Applying this file needs the ${scopeOf[change.kind]} scope (${change.kind} ${change.key}).`,
            scopeOf[change.kind],
          );
        }
      }
      // The stored settings decide, before any change (the file's own settings come later).
      refuse(refusalsOf(current, plan.changes, applyingAs(principal, options)), applyingAs(principal, options));
      const run = new ApplyRun(acting, options);
      for (const change of plan.changes) await run.apply(change);
      return plan;
    });
  }
}

/** One apply in progress: turns each planned change into the service call that makes it. */
class ApplyRun {
  private readonly serving: ServingWriter;

  constructor(
    private readonly acting: ActingContext,
    private readonly options: ApplyOptions,
  ) {
    this.serving = new ServingWriter(acting);
  }

  async apply(change: ConfigurationChange): Promise<void> {
    const { services, projectKey, principal } = this.acting;
    const after = change.after as Record<string, any> | null;
    switch (change.kind) {
      case 'project':
        if (change.action === 'create') {
          // Its environments follow as changes of their own, with their settings.
          await services.projects.create(
            principal,
            { key: projectKey, name: after!.name, description: after!.description, environments: [] },
            this.acting.newTrail(),
          );
        } else {
          await services.projects.update(
            principal,
            projectKey,
            { name: after!.name, description: after!.description },
            this.acting.newTrail(),
          );
        }
        return;
      case 'environment': {
        // The refusals were checked up front; the console's typed keys confirm here as they did there.
        const by = {
          console: principal.type === 'console_session',
          ...(this.options.confirmed?.includes(change.key) ? { confirmation: change.key } : {}),
        };
        if (change.action === 'delete') return services.environments.delete(principal, projectKey, change.key, by, this.acting.newTrail());
        const { key, ...settings } = after as ProjectConfiguration['environments'][number];
        if (change.action === 'create')
          await services.environments.create(principal, projectKey, { key, ...settings }, this.acting.newTrail());
        else await services.environments.update(principal, projectKey, key, settings, by, this.acting.newTrail());
        return;
      }
      case 'segment': {
        if (change.action === 'delete') return services.segments.delete(principal, projectKey, change.key, this.acting.newTrail());
        const { key, ...body } = after!;
        if (change.action === 'create')
          await services.segments.create(principal, projectKey, { key, ...body } as never, this.acting.newTrail());
        else await services.segments.update(principal, projectKey, key, body as never, this.acting.newTrail());
        return;
      }
      case 'flag':
        return this.applyFlag(change);
      case 'flag_value':
        return this.applyValue(change);
      case 'serving':
        return this.applyServing(change);
    }
  }

  /** A serving change, made with the rollout operations when a rollout is in progress (rollout-change.ts). */
  private async applyServing(change: ConfigurationChange): Promise<void> {
    const serving = change.after as Serving;
    const environment = change.environment as string;
    const confirmation = this.options.confirmed?.includes(environment) ? { confirmation: environment } : {};
    const step = servingStep(change.before as Serving | null, serving);
    if (step.kind === 'percentage') {
      await this.serving.setRolloutPercentage(change.key, environment, step.percentage, confirmation);
      return;
    }
    if (step.kind === 'complete') {
      await this.serving.completeRollout(change.key, environment, confirmation);
      return;
    }
    if (step.kind === 'replace') await this.serving.endRollout(change.key, environment, confirmation);
    // A file without prerequisites means none (plan compares them so), not the draft's copy.
    await this.serving.write(
      change.key,
      environment,
      { ...serving, prerequisites: serving.prerequisites ?? [] },
      {
        publish: true,
        comment: serving.comment ?? this.options.comment ?? null,
        ...confirmation,
      },
    );
  }

  private async applyFlag(change: ConfigurationChange): Promise<void> {
    const { services, projectKey, principal } = this.acting;
    if (change.action === 'delete') return services.flags.delete(principal, projectKey, change.key, this.acting.newTrail());
    const flag = change.after as ProjectConfiguration['flags'][number];
    if (change.action === 'create') {
      await services.flags.create(
        principal,
        projectKey,
        {
          key: flag.key,
          name: flag.name,
          type: flag.type,
          description: flag.description,
          include_in_mobile: flag.include_in_mobile,
          include_in_client: flag.include_in_client,
          tags: flag.tags ?? [],
        },
        this.acting.newTrail(),
      );
      // Creation has no permanent field; an update sets it.
      if (!flag.permanent) return;
    }
    await services.flags.update(
      principal,
      projectKey,
      flag.key,
      {
        name: flag.name,
        permanent: flag.permanent,
        description: flag.description,
        include_in_mobile: flag.include_in_mobile,
        include_in_client: flag.include_in_client,
        tags: flag.tags ?? [],
      },
      this.acting.newTrail(),
    );
  }

  private async applyValue(change: ConfigurationChange): Promise<void> {
    const path = { projectKey: this.acting.projectKey, flagKey: change.key };
    const display = change.value as string;
    const { principal, services } = this.acting;
    const values = services.values;
    let ulid = (await this.serving.valueUlids(change.key)).get(display);
    if (change.action === 'delete') {
      if (ulid) await values.delete(principal, path, ulid, this.acting.newTrail());
      return;
    }
    // A boolean flag is created with both of its values; only its default may differ.
    if (ulid === undefined) ulid = (await values.create(principal, path, display, this.acting.newTrail())).ulid;
    if ((change.after as { default: boolean }).default) await values.setDefault(principal, path, ulid, this.acting.newTrail());
  }
}
