import type { FeatureDeps } from '../feature.js';
import type { ServiceDeps } from '../service-deps.js';
import { knexTransactor } from '../shared/transactions.js';
import { segmentsController } from './controller.js';
import { SegmentsService } from './service.js';
import { KnexSegmentsStore } from './store.js';

/** The segments service, over the pool or a transaction. */
export function buildSegmentsService(deps: ServiceDeps): SegmentsService {
  return new SegmentsService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    lookups: deps.lookups,
    store: new KnexSegmentsStore(deps.dialect),
    clock: deps.clock,
  });
}

/** Segments of a project (listSegments ... deleteSegment). */
export function createSegmentsFeature(deps: FeatureDeps) {
  const service = buildSegmentsService(deps);
  return { managementHandlers: segmentsController(service), services: { segments: service } };
}
