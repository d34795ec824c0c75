import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { segmentsController } from './controller.js';
import { SegmentsService } from './service.js';
import { KnexSegmentsStore } from './store.js';

/** Segments of a project (listSegments ... deleteSegment). */
export function createSegmentsFeature(deps: FeatureDeps) {
  const service = new SegmentsService({
    db: deps.knex,
    tx: knexTransactor(deps.knex),
    lookups: deps.lookups,
    store: new KnexSegmentsStore(deps.dialect),
    clock: deps.clock,
  });
  return { managementHandlers: segmentsController(service) };
}
