import { liveness, readiness } from '../../http/operations/health.js';
import type { FeatureDeps, FeatureParts } from '../feature.js';

/**
 * getHealth and getReadiness. The request dispatcher answers them before any API stage (so they
 * are never audited or rate-limited); these routed handlers give the same answers.
 */
export function createOperationsFeature(deps: FeatureDeps): FeatureParts {
  return {
    publicHandlers: {
      getHealth: async () => liveness(),
      getReadiness: async () => readiness(deps.knex, deps.readiness),
    },
  };
}
