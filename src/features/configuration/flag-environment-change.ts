import type { Knex } from 'knex';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { CoreDeps } from '../../core.js';
import type { EnvironmentRef, FlagRef, ProjectRef } from '../shared/lookup.js';
import type { Auditor, Transactor } from '../shared/transactions.js';
import { type ActingContext, actingContext } from './transactional-services.js';

/** What the restore and switch services are built from. */
export interface FlagEnvironmentChangeDeps {
  core: CoreDeps;
  /** The request's one transaction (retried on deadlock), over which the feature services are built. */
  tx: Transactor;
}

/** What a change of one flag in one environment acts on and with. */
export interface FlagEnvironmentChange {
  trx: Knex.Transaction;
  project: ProjectRef;
  flag: FlagRef;
  environment: EnvironmentRef;
  /** The feature services over the change's transaction. */
  acting: ActingContext;
}

/**
 * An Auditor for the steps of one switch or restore (drafts, rules, publishes): they write no
 * entry of their own, so the change is one audit entry and one webhook event, the request's.
 * `changed` says whether any step changed something.
 */
function stepsAuditor(): Auditor & { changed: boolean } {
  const quiet = {
    changed: false,
    async commit() {
      quiet.changed = true;
    },
    describe() {},
    fresh: () => quiet,
  };
  return quiet;
}

/**
 * Runs a change of a flag in an environment (restore, switch) in one transaction: resolves the
 * path, describes the request's audit entry as about the flag in that environment, then runs
 * `work`, whose own changes go through the feature services over the same transaction. When
 * something changed, the request's entry is committed with what `work` answered (`after`).
 */
export function changeFlagEnvironment<T>(
  deps: FlagEnvironmentChangeDeps,
  principal: ManagementPrincipal,
  path: { projectKey: string; flagKey: string; environmentKey: string },
  audit: Auditor,
  action: string,
  comment: string | null | undefined,
  work: (change: FlagEnvironmentChange) => Promise<T>,
): Promise<T> {
  return deps.tx.transaction(async (trx) => {
    const steps = stepsAuditor();
    const acting = actingContext(trx, deps.core, principal, path.projectKey, steps);
    const { project, flag, environment } = await acting.services.lookups.findFlagEnvironment(trx, principal.access, path);
    const subject = {
      action,
      subjectType: 'flag',
      subjectUlid: flag.ulid,
      subjectLabel: `${flag.key}/${environment.key}`,
      projectUlid: project.ulid,
      environmentUlid: environment.ulid,
    };
    audit.describe(subject);
    const result = await work({ trx, project, flag, environment, acting });
    if (steps.changed) await audit.commit(trx, { ...subject, changes: { after: result, comment: comment ?? null } });
    return result;
  });
}
