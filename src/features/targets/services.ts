import { TargetDraftService } from './drafts.js';
import { TargetPublishService } from './publishing.js';
import { RolloutService } from './rollouts.js';
import { TargetScheduledJobs } from './scheduled-jobs.js';
import type { ManagementPrincipal } from '../../auth/principal.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { KnexTargetStore } from './store.js';
import type { FlagEnvironment, TargetServiceDeps } from './types.js';

/** The targets' services, one per concern, over the pool or a flags-as-code request's transaction (`deps.knex`). */
export function buildTargetServices(core: ServiceDeps) {
  return targetServicesFrom({
    db: core.knex,
    tx: knexTransactor(core.knex),
    store: new KnexTargetStore(core.dialect),
    lookups: core.lookups,
    clock: core.clock,
    rolloutStepMs: core.config.rolloutStepMs,
  });
}

/** The targets' services over the given parts (the unit tests give fakes). */
export function targetServicesFrom(deps: TargetServiceDeps) {
  return {
    drafts: new TargetDraftService(deps),
    publishing: new TargetPublishService(deps),
    rollouts: new RolloutService(deps),
    scheduledJobs: new TargetScheduledJobs(deps),
    /** The flag and environment of a path, as the caller may see them: what every targets operation acts on. */
    resolve: (
      principal: ManagementPrincipal,
      path: { projectKey: string; flagKey: string; environmentKey: string },
    ): Promise<FlagEnvironment> => deps.lookups.findFlagEnvironment(deps.db, principal.access, path),
    /** The interval between automatic rollout steps, for the API's view of a target. */
    rolloutStepMs: deps.rolloutStepMs,
  };
}

export type TargetServices = ReturnType<typeof targetServicesFrom>;
