import type { components } from '../../../generated/management.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { Context, FlagType } from '../../engine/index.js';
import type { Db } from '../../storage/db.js';
import type { LookupStore } from '../shared/lookup.js';
import type { Auditor } from '../shared/transactions.js';
import { describeExplanation } from './explanation.js';
import type { EvaluationService } from './service.js';
import type { ExplanationStore } from './store-types.js';

type EvaluationResult = components['schemas']['EvaluationResult'];

/** What PreviewService is built from. */
export interface PreviewServiceDeps {
  db: Db;
  lookups: LookupStore;
  explanations: ExplanationStore;
  /** The snapshots the preview evaluates on (at the database's current revision). */
  evaluation: Pick<EvaluationService, 'evaluateForManagement'>;
}

/**
 * The management preview of what a flag serves in an environment (evaluateFlag and its twin, and
 * the flag page's overview): the serving path's engine and snapshot, with the engine's
 * explanation named in the API's terms (the target and rules, read through the store).
 */
export class PreviewService {
  constructor(private readonly deps: PreviewServiceDeps) {}

  /**
   * The flag of `path` evaluated for the context `readContext` reads once the path is resolved
   * (a 404 wins over a bad context), audited as `action`.
   */
  async evaluate(
    principal: ManagementPrincipal,
    path: { projectKey: string; flagKey: string; environmentKey: string },
    readContext: () => Context | null,
    action: string,
    audit: Pick<Auditor, 'describe'>,
  ): Promise<EvaluationResult> {
    const { project, flag, environment } = await this.deps.lookups.findFlagEnvironment(this.deps.db, principal.access, path);
    audit.describe({
      action,
      subjectType: 'flag',
      subjectUlid: flag.ulid,
      subjectLabel: flag.key,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    });
    return this.explained(environment.ulid, flag, readContext());
  }

  /** What `context` is served, explained (the overview asks with no context: what a context without attributes gets). */
  async explained(
    environmentUlid: string,
    flag: { ulid: string; key: string; name: string; type: FlagType },
    context: Context | null,
  ): Promise<EvaluationResult> {
    const { why, ...result } = await this.deps.evaluation.evaluateForManagement(environmentUlid, flag, context);
    const explanation = await describeExplanation(this.deps.explanations, this.deps.db, { flagUlid: flag.ulid, environmentUlid }, why);
    return { ...result, explanation };
  }
}
