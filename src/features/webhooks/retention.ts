import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { BackgroundTask } from '../../core.js';
import { poller } from '../../poller.js';
import type { WebhookStore } from './store.js';

const dayMs = 86_400_000;

/**
 * Deletes delivered and failed events created more than `retentionDays` ago, in batches; 0 keeps
 * everything. Waiting events are never deleted. Several instances may run it at once.
 */
export async function purgeOldWebhookEvents(store: WebhookStore, clock: Clock, retentionDays: number, batch = 1000): Promise<number> {
  if (retentionDays <= 0) return 0;
  const before = new Date(clock.now().getTime() - retentionDays * dayMs).toISOString();
  let purged = 0;
  for (;;) {
    const n = await store.purgeSettled(before, batch);
    purged += n;
    if (n < batch) return purged;
  }
}

export function webhookRetentionTask(
  store: WebhookStore,
  clock: Clock,
  retentionDays: number,
  logger: Logger,
  // Every 10 minutes, like the audit retention: cheap when there is nothing to delete.
  intervalMs = 600_000,
): BackgroundTask {
  return poller(
    'webhook-retention',
    intervalMs,
    async () => {
      const purged = await purgeOldWebhookEvents(store, clock, retentionDays);
      if (purged > 0) logger.info({ purged, retentionDays }, 'old webhook deliveries deleted');
    },
    logger,
  );
}
