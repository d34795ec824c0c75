import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { BackgroundTask } from '../../core.js';
import { deleteInBatches, retentionCutoff, retentionTask } from '../../retention.js';
import type { Db } from '../../storage/db.js';
import type { WebhookStore } from './store.js';

/**
 * Deletes delivered and failed events created more than `retentionDays` ago, in batches; 0 keeps
 * everything. Waiting events are never deleted. Several instances may run it at once.
 */
export async function purgeOldWebhookEvents(
  store: WebhookStore,
  db: Db,
  clock: Clock,
  retentionDays: number,
  batch = 1000,
): Promise<number> {
  if (retentionDays <= 0) return 0;
  const before = new Date(retentionCutoff(clock, retentionDays)).toISOString();
  return deleteInBatches((limit) => store.purgeSettled(db, before, limit), batch);
}

export function webhookRetentionTask(store: WebhookStore, db: Db, clock: Clock, retentionDays: number, logger: Logger): BackgroundTask {
  return retentionTask({
    name: 'webhook-retention',
    message: 'old webhook deliveries deleted',
    retentionDays,
    purge: () => purgeOldWebhookEvents(store, db, clock, retentionDays),
    count: (purged) => purged,
    logger,
  });
}
