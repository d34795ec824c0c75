import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { insightsHandlers } from './controller.js';
import { InsightsService } from './service.js';
import { KnexInsightsStore } from './store.js';

/** The insights service (reads only), over the pool. */
export function buildInsightsService(deps: ServiceDeps): InsightsService {
  return new InsightsService({ db: deps.knex, lookups: deps.lookups, store: new KnexInsightsStore(), clock: deps.clock });
}

/**
 * Insights (specs/management.yaml, tag Insights): a flag's freshness and counters per environment, stale flags,
 * default-value reports, observed context attributes. The telemetry itself is recorded by the
 * evaluation feature (src/features/evaluation) and written in batches (src/runtime).
 */
export function createInsightsFeature(deps: FeatureDeps) {
  const service = buildInsightsService(deps);
  return { managementHandlers: insightsHandlers(service), services: { insights: service } };
}
