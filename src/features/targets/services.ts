import { TargetDraftService } from './drafts.js';
import { TargetPublishService } from './publishing.js';
import { RolloutService } from './rollouts.js';
import { TargetScheduledJobs } from './scheduled-jobs.js';
import type { TargetServiceDeps } from './types.js';

/** The targets services, one per concern, from one `deps` (the pool's, or a flags-as-code request's transaction). */
export function buildTargetServices(deps: TargetServiceDeps) {
  return {
    drafts: new TargetDraftService(deps),
    publishing: new TargetPublishService(deps),
    rollouts: new RolloutService(deps),
    scheduledJobs: new TargetScheduledJobs(deps),
    /** The interval between automatic rollout steps, for the API's view of a target. */
    rolloutStepMs: deps.rolloutStepMs,
  };
}

export type TargetServices = ReturnType<typeof buildTargetServices>;
