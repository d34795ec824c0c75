import { poller } from '../../poller.js';
import type { FeatureDeps } from '../feature.js';
import { IdempotencyService } from './service.js';
import { idempotencyStage } from './stage.js';
import { KnexIdempotencyStore } from './store.js';

/**
 * Idempotency-Key on the management API's POST and PUT operations: replay, 422 on a different
 * body, 409 while the first request still runs; records expire after 24 hours and are purged.
 */
export function createIdempotencyFeature(deps: FeatureDeps) {
  const service = new IdempotencyService({
    db: deps.knex,
    store: new KnexIdempotencyStore(),
    clock: deps.clock,
    onStoreError: (err) => deps.logger.error({ err }, 'idempotency record could not be stored'),
  });
  return {
    managementStages: { aroundHandler: [idempotencyStage(service)] },
    tasks: [poller('idempotency-purge', 600_000, () => service.purgeExpired(), deps.logger)],
  };
}
