import type { components } from '../../../generated/management.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Db } from '../../storage/db.js';
import type { PreviewService } from '../evaluation/preview-service.js';
import type { FlagService } from '../flags/service.js';
import type { InsightsService } from '../insights/service.js';
import type { PrerequisitesService } from '../prerequisites/service.js';
import type { RulesService } from '../rules/service.js';
import type { LookupStore } from '../shared/lookup.js';
import type { Auditor } from '../shared/transactions.js';
import type { TargetServices } from '../targets/services.js';
import { targetView } from '../targets/view.js';

type Schemas = components['schemas'];
type FlagEnvironmentPath = { projectKey: string; flagKey: string; environmentKey: string };

/** What FlagOverviewService is built from: the services whose reads it answers together. */
export interface FlagOverviewServiceDeps {
  /** The pool: the path lookup and the evaluation's explanation read through it. */
  knex: Db;
  lookups: LookupStore;
  flags: FlagService;
  targets: Pick<TargetServices, 'drafts' | 'rolloutStepMs'>;
  rules: RulesService;
  prerequisites: PrerequisitesService;
  insights: InsightsService;
  /** What the flag serves a context without attributes, explained (the evaluation feature's preview). */
  preview: Pick<PreviewService, 'explained'>;
}

/** The sub-reads describe nothing: the overview is audited once, as itself. */
const unaudited: Pick<Auditor, 'describe'> = { describe() {} };

const rolling = (t: { rollout_status: string | null }) => t.rollout_status === 'active' || t.rollout_status === 'paused';

/**
 * One environment of a flag as the console's flag page shows it (getFlagEnvironmentOverview in
 * specs/management.yaml): each part is what its own operation answers, read through the same
 * service, so the page needs one request per environment instead of one per part.
 */
export class FlagOverviewService {
  constructor(private readonly deps: FlagOverviewServiceDeps) {}

  async get(
    principal: ManagementPrincipal,
    path: FlagEnvironmentPath,
    window: { hours: number; days: number },
    audit: Pick<Auditor, 'describe'>,
  ): Promise<Schemas['FlagEnvironmentOverview']> {
    const { project, flag, environment } = await this.deps.lookups.findFlagEnvironment(this.deps.knex, principal.access, path);
    audit.describe({
      action: 'flag.read',
      subjectType: 'flag',
      subjectUlid: flag.ulid,
      subjectLabel: flag.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    const ctx = { project, flag, environment };
    const [resource, targets, insights, evaluations, exposures, contextAttributes, served] = await Promise.all([
      this.deps.flags.get(principal, path.projectKey, path.flagKey, { staleDays: 30 }, unaudited),
      this.deps.targets.drafts.list(principal, ctx, unaudited),
      this.deps.insights.flagInsights(principal, path, unaudited),
      this.deps.insights.evaluationHours(principal, path, window.hours, unaudited),
      this.deps.insights.splitExposures(principal, path, window.days, unaudited),
      this.deps.insights.contextAttributes(principal, path, unaudited),
      this.served(environment.ulid, flag),
    ]);
    const serving = resource.environments?.find((s) => s.environment_key === environment.key);
    if (!serving) throw new Error(`no serving state of flag ${flag.key} in environment ${environment.key}`);
    // As the page shows them: the publish serving now, while its rollout is in progress the one the
    // contexts outside it get, and the draft being edited.
    const [current, previous] = targets
      .filter((t) => t.status === 'published')
      .sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? '') || b.ulid.localeCompare(a.ulid));
    const draft = targets.find((t) => t.status === 'draft');
    const shown = [current, current && rolling(current) ? previous : undefined, draft].filter((t) => t !== undefined);
    const targetRules = await Promise.all(
      shown.map(async (target) => {
        const targetPath = { ...path, targetUlid: target.ulid };
        const [rules, prerequisites] = await Promise.all([
          this.deps.rules.list(principal, targetPath, unaudited),
          this.deps.prerequisites.list(principal, targetPath, unaudited),
        ]);
        return { target_ulid: target.ulid, rules, prerequisites };
      }),
    );
    return {
      flag_key: flag.key,
      environment_key: environment.key,
      serving,
      served,
      targets: targets.map((t) => targetView(t, this.deps.targets.rolloutStepMs)),
      target_rules: targetRules,
      insights,
      evaluations,
      exposures,
      context_attributes: contextAttributes,
    };
  }

  /** What a context without attributes is served, as evaluateFlag without a context answers. */
  private served(environmentUlid: string, flag: Parameters<PreviewService['explained']>[1]): Promise<Schemas['EvaluationResult']> {
    return this.deps.preview.explained(environmentUlid, flag, null);
  }
}
