import { knexTransactor } from '../shared/transactions.js';
import type { FeatureDeps } from '../feature.js';
import { knexLookups } from '../shared/lookup-store.js';
import { targetHandlers } from './controller.js';
import { TargetPublisher } from './publisher.js';
import { buildTargetServices } from './services.js';
import { KnexTargetStore } from './store.js';

export { TargetPublisher } from './publisher.js';
export type { PublisherRunResult, SystemAuditSink } from './publisher.js';
export { buildTargetServices, type TargetServices } from './services.js';
export { automaticSteps } from './rollout-steps.js';
export type { FlagEnvironment } from './types.js';

/** Targets, publishing and rollouts (specs/management.yaml, tags Targets and Rollouts). */
export function createTargetsFeature(deps: FeatureDeps) {
  const services = buildTargetServices(deps);
  return { managementHandlers: targetHandlers(services), services: { targets: services } };
}

/**
 * For the scheduler: publishes due scheduled targets and advances automatic rollouts (audit
 * actor `system`), without an HTTP request. Call `runOnce()` (or `publishDueTargets()` /
 * `advanceRollouts()`) from a background task; safe on every instance at once.
 */
export function createTargetPublisher(
  deps: Pick<FeatureDeps, 'knex' | 'dialect' | 'clock' | 'config' | 'auditWriter' | 'logger'>,
): TargetPublisher {
  // The scheduled jobs act on targets they read, never on a path: the lookups go unused.
  const { scheduledJobs } = buildTargetServices({ ...deps, lookups: knexLookups });
  return new TargetPublisher(
    scheduledJobs,
    new KnexTargetStore(deps.dialect),
    deps.auditWriter,
    deps.knex,
    knexTransactor(deps.knex),
    deps.clock,
    deps.logger,
  );
}
