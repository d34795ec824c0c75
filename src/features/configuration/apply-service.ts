import type { Knex } from 'knex';
import { AuditTrail, type AuditWriter } from '../../audit/audit-trail.js';
import { hasScope, type ManagementPrincipal, type Scope } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../http/errors.js';
import { inTransaction } from '../../storage/transaction.js';
import { buildEnvironmentService } from '../environments/index.js';
import { FlagValueService } from '../flag-values/service.js';
import { KnexFlagValueStore } from '../flag-values/store.js';
import { FlagService } from '../flags/service.js';
import { KnexFlagStore } from '../flags/store.js';
import { buildProjectService } from '../projects/index.js';
import { RulesService } from '../rules/service.js';
import { KnexRulesStore } from '../rules/store.js';
import { SegmentsService } from '../segments/service.js';
import { KnexSegmentsStore } from '../segments/store.js';
import { findFlagEnvironment } from '../shared/lookup.js';
import { TargetService } from '../targets/service.js';
import { KnexTargetStore } from '../targets/store.js';
import type { ConfigurationExportService } from './export-service.js';
import { normaliseConfiguration, planConfiguration, type ConfigurationChange, type ConfigurationPlan, type ProjectConfiguration } from './plan.js';

type Serving = ProjectConfiguration['flags'][number]['environments'][string];

export interface ApplyOptions {
  prune: boolean;
  /** Publish comment for serving changes whose file entry has none. */
  comment?: string;
}

/** The feature services, built over one database transaction: every change of an apply commits or rolls back together. */
function servicesOver(trx: Knex.Transaction, core: CoreDeps) {
  const over = { ...core, knex: trx };
  return {
    projects: buildProjectService(over),
    environments: buildEnvironmentService(over),
    segments: new SegmentsService(new KnexSegmentsStore(trx, core.dialect), core.clock),
    flags: new FlagService(new KnexFlagStore(trx, core.dialect), core.clock),
    values: new FlagValueService(new KnexFlagValueStore(trx, core.dialect), core.clock),
    targets: new TargetService(new KnexTargetStore(trx, core.dialect), core.clock),
    rules: new RulesService(new KnexRulesStore(trx, core.dialect), core.clock),
  };
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

/**
 * Applies a configuration file: exactly the changes its plan lists, through the same services the
 * individual operations use (publishing through the normal publish path, so comment and
 * confirmation rules hold), all in one transaction. Each change is audited as its own action with
 * the apply's request as the actor's; applying the same file again changes nothing.
 */
export class ConfigurationApplyService {
  constructor(
    private readonly core: CoreDeps,
    private readonly exporter: ConfigurationExportService,
    private readonly auditWriter: AuditWriter,
  ) {}

  async apply(principal: ManagementPrincipal, projectKey: string, desired: ProjectConfiguration, options: ApplyOptions, audit: AuditTrail): Promise<ConfigurationPlan> {
    if (desired.project?.key !== projectKey) {
      throw ValidationError.field('project.key', `The file describes project "${desired.project?.key}", not "${projectKey}".`);
    }
    return inTransaction(this.core.knex, async (trx) => {
      const services = servicesOver(trx, this.core);
      const newTrail = () => new AuditTrail(this.auditWriter, principal, audit.httpMethod, audit.httpPath);
      // The plan is made inside the transaction, so it describes exactly what is changed.
      const current = await this.exporter.export(principal, projectKey, {}, audit, trx).catch(async (error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
        // A new instance: the file creates its project (an administrator's token without grants).
        const { key, name, description } = desired.project;
        const environments = desired.environments.map((e) => ({ key: e.key, name: e.name }));
        await services.projects.create(principal, { key, name, description, environments }, newTrail());
        return this.exporter.export(principal, projectKey, {}, audit, trx);
      });
      const { configuration, errors } = normaliseConfiguration(desired, current);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      audit.describe({ action: 'project.applied' });
      const plan = planConfiguration(current, configuration, options);
      for (const change of plan.changes) {
        if (!hasScope(principal, scopeOf[change.kind])) {
          throw new ForbiddenError(`Applying this file needs the ${scopeOf[change.kind]} scope (${change.kind} ${change.key}).`, scopeOf[change.kind]);
        }
      }
      const run = new ApplyRun(services, trx, principal, projectKey, options, newTrail);
      for (const change of plan.changes) await run.apply(change);
      return plan;
    });
  }
}

/** One apply in progress: turns each planned change into the service call that makes it. */
class ApplyRun {
  constructor(
    private readonly services: ReturnType<typeof servicesOver>,
    private readonly trx: Knex.Transaction,
    private readonly principal: ManagementPrincipal,
    private readonly projectKey: string,
    private readonly options: ApplyOptions,
    /** A fresh trail per change, so each audit entry describes only its own subject. */
    private readonly newTrail: () => AuditTrail,
  ) {}

  private caller() {
    return { access: this.principal.access, audit: this.newTrail() };
  }

  async apply(change: ConfigurationChange): Promise<void> {
    const { services, projectKey, principal } = this;
    const after = change.after as Record<string, any> | null;
    switch (change.kind) {
      case 'project':
        await services.projects.update(principal, projectKey, { name: after!.name, description: after!.description }, this.newTrail());
        return;
      case 'environment': {
        if (change.action === 'delete') return services.environments.delete(principal, projectKey, change.key, this.newTrail());
        const { key, ...settings } = after as ProjectConfiguration['environments'][number];
        if (change.action === 'create') await services.environments.create(principal, projectKey, { key, ...settings }, this.newTrail());
        else await services.environments.update(principal, projectKey, key, settings, this.newTrail());
        return;
      }
      case 'segment': {
        if (change.action === 'delete') return services.segments.delete(this.caller(), projectKey, change.key);
        const { key, ...body } = after!;
        if (change.action === 'create') await services.segments.create(this.caller(), projectKey, { key, ...body } as never);
        else await services.segments.update(this.caller(), projectKey, key, body as never);
        return;
      }
      case 'flag': {
        if (change.action === 'delete') return services.flags.delete(this.caller(), projectKey, change.key);
        const flag = after!;
        if (change.action === 'create') {
          await services.flags.create(this.caller(), projectKey, {
            key: flag.key,
            name: flag.name,
            type: flag.type,
            description: flag.description,
            include_in_mobile: flag.include_in_mobile,
            include_in_client: flag.include_in_client,
          });
          if (!flag.permanent) return;
        }
        await services.flags.update(this.caller(), projectKey, flag.key, {
          name: flag.name,
          permanent: flag.permanent,
          description: flag.description,
          include_in_mobile: flag.include_in_mobile,
          include_in_client: flag.include_in_client,
        });
        return;
      }
      case 'flag_value':
        return this.applyValue(change);
      case 'serving':
        return this.publish(change.key, change.environment as string, change.after as Serving);
    }
  }

  private async valueUlids(flagKey: string): Promise<Map<string, string>> {
    const values = await this.services.values.list(this.caller(), { projectKey: this.projectKey, flagKey });
    return new Map(values.map((v) => [v.display, v.ulid]));
  }

  private async applyValue(change: ConfigurationChange): Promise<void> {
    const path = { projectKey: this.projectKey, flagKey: change.key };
    const display = change.value as string;
    if (change.action === 'delete') {
      const ulid = (await this.valueUlids(change.key)).get(display);
      if (ulid) await this.services.values.delete(this.caller(), path, ulid);
      return;
    }
    let ulid = (await this.valueUlids(change.key)).get(display);
    // A boolean flag is created with both of its values; only its default may differ.
    if (ulid === undefined) ulid = (await this.services.values.create(this.caller(), path, display)).ulid;
    if ((change.after as { default: boolean }).default) await this.services.values.setDefault(this.caller(), path, ulid);
  }

  /** Draft, configure and publish one flag's serving configuration through the target and rule services. */
  private async publish(flagKey: string, environmentKey: string, serving: Serving): Promise<void> {
    const { services } = this;
    const ctx = await findFlagEnvironment(this.trx, this.principal.access, { projectKey: this.projectKey, flagKey, environmentKey });
    const commit = (trail: AuditTrail) => (trx: Knex.Transaction, subject: Parameters<AuditTrail['commit']>[1]) => trail.commit(trx, subject);
    const values = await this.valueUlids(flagKey);
    const { target } = await services.targets.create(ctx, commit(this.newTrail()));
    const path = { projectKey: this.projectKey, flagKey, environmentKey, targetUlid: target.ulid };
    await services.targets.update(ctx, target.ulid, { value_ulid: values.get(serving.value) as string }, commit(this.newTrail()));
    // The draft copied the served rules; the file's rules replace them.
    for (const rule of await services.rules.list(this.caller(), path)) await services.rules.delete(this.caller(), { ...path, ruleUlid: rule.ulid });
    for (const rule of serving.rules) {
      await services.rules.create(this.caller(), path, {
        value_ulid: values.get(rule.value) as string,
        description: rule.description,
        criteria: rule.criteria as never,
      });
    }
    const comment = serving.comment ?? this.options.comment ?? null;
    const rollout = serving.rollout;
    await services.targets.publish(
      ctx,
      target.ulid,
      {
        comment,
        ...(rollout
          ? { rollout_enabled: true, rollout_mode: rollout.mode, ...(rollout.mode === 'manual' ? { rollout_percentage: rollout.percentage } : {}) }
          : {}),
      },
      commit(this.newTrail()),
    );
  }
}
