import type { Logger } from 'pino';
import { auditUlidLowerBound } from '../../audit/audit-ids.js';
import type { Clock } from '../../clock.js';
import type { BackgroundTask } from '../../core.js';
import { poller } from '../../poller.js';
import type { AuditLogStore } from './store-types.js';

const dayMs = 86_400_000;

/**
 * Deletes audit entries (both logs) older than `retentionDays`, in batches; 0 keeps everything.
 * Several instances may run it at once: deleting by primary key is idempotent.
 */
export async function purgeOldAuditEntries(
  store: AuditLogStore,
  clock: Clock,
  retentionDays: number,
  batch = 1000,
): Promise<{ management: number; public: number }> {
  const purged = { management: 0, public: 0 };
  if (retentionDays <= 0) return purged;
  const before = auditUlidLowerBound(clock.now().getTime() - retentionDays * dayMs);
  for (const log of ['management', 'public'] as const) {
    for (;;) {
      const n = await store.purge(log, before, batch);
      purged[log] += n;
      if (n < batch) break;
    }
  }
  return purged;
}

export function auditRetentionTask(
  store: AuditLogStore,
  clock: Clock,
  retentionDays: number,
  logger: Logger,
  // Every 10 minutes: cheap when there is nothing to delete (one primary-key range), and instances
  // that live less than an hour still get to run it.
  intervalMs = 600_000,
): BackgroundTask {
  return poller(
    'audit-retention',
    intervalMs,
    async () => {
      const purged = await purgeOldAuditEntries(store, clock, retentionDays);
      if (purged.management + purged.public > 0) logger.info({ purged, retentionDays }, 'old audit entries deleted');
    },
    logger,
  );
}
