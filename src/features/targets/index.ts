import type { FeatureDeps } from '../feature.js';
import { knexLookups } from '../shared/lookup-store.js';
import { knexTransactor } from '../shared/transactions.js';
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
  const services = buildTargetServices({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    store: new KnexTargetStore(deps.dialect),
    lookups: deps.lookups,
    clock: deps.clock,
    rolloutStepMs: deps.config.rolloutStepMs,
  });
  return { managementHandlers: targetHandlers(services) };
}

/**
 * For the scheduler: publishes due scheduled targets and advances automatic rollouts (audit
 * actor `system`), without an HTTP request. Call `runOnce()` (or `publishDueTargets()` /
 * `advanceRollouts()`) from a background task; safe on every instance at once.
 */
export function createTargetPublisher(
  deps: Pick<FeatureDeps, 'knex' | 'dialect' | 'clock' | 'config' | 'auditWriter' | 'logger'>,
): TargetPublisher {
  const store = new KnexTargetStore(deps.dialect);
  const { scheduledJobs } = buildTargetServices({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    store,
    // The scheduled jobs act on targets they read, never on a path: the lookups go unused.
    lookups: knexLookups,
    clock: deps.clock,
    rolloutStepMs: deps.config.rolloutStepMs,
  });
  return new TargetPublisher(scheduledJobs, store, deps.auditWriter, deps.knex, deps.clock, deps.logger);
}
