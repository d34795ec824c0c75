import { liveness, readiness } from '../../http/operations/health.js';
import { NotFoundError } from '../../http/errors.js';
import { metricsAnswer } from '../../observability/metrics-endpoint.js';
import type { PublicRequest } from '../../http/operation.js';
import type { FeatureDeps } from '../feature.js';

/**
 * getHealth, getReadiness and getMetrics. The request dispatcher answers them before any API
 * stage (so they are never audited or rate-limited); these routed handlers give the same answers.
 */
export function createOperationsFeature(deps: FeatureDeps) {
  return {
    publicHandlers: {
      getHealth: async () => liveness(),
      getReadiness: async () => readiness(deps.knex, deps.readiness),
      getMetrics: async (request: PublicRequest) => {
        if (deps.config.metrics.port !== undefined) throw new NotFoundError('Not found: metrics are served on their own port.');
        const authorization = request.headers.authorization;
        return metricsAnswer(deps.metrics, deps.config.metrics, typeof authorization === 'string' ? authorization : undefined);
      },
    },
  };
}
