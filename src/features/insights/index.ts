import type { FeatureDeps } from '../feature.js';
import { insightsHandlers } from './controller.js';
import { InsightsService } from './service.js';
import { KnexInsightsStore } from './store.js';

/**
 * Insights (specs/management.yaml, tag Insights): a flag's freshness and counters per environment, stale flags,
 * default-value reports, observed context attributes. The telemetry itself is recorded by the
 * evaluation feature (src/features/evaluation) and written in batches (src/runtime).
 */
export function createInsightsFeature(deps: FeatureDeps) {
  const service = new InsightsService({ store: new KnexInsightsStore(deps.knex), clock: deps.clock });
  return { managementHandlers: insightsHandlers(service) };
}
