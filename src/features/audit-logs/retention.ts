import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { auditUlidLowerBound } from '../../audit/audit-ids.js';
import type { Clock } from '../../clock.js';
import type { BackgroundTask } from '../../core.js';
import { deleteInBatches, retentionCutoff, retentionTask } from '../../retention.js';
import { purgeOldEvaluationHours } from '../../runtime/evaluation-hours-retention.js';
import type { AuditLogStore } from './store-types.js';

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
  const before = auditUlidLowerBound(retentionCutoff(clock, retentionDays));
  for (const log of ['management', 'public'] as const) {
    purged[log] = await deleteInBatches((limit) => store.purge(log, before, limit), batch);
  }
  return purged;
}

/**
 * The audit retention job: audit entries, and the hourly evaluation counts (kept as long as the
 * audit entries that record the same traffic).
 */
export function auditRetentionTask(store: AuditLogStore, knex: Knex, clock: Clock, retentionDays: number, logger: Logger): BackgroundTask {
  return retentionTask({
    name: 'audit-retention',
    message: 'old audit entries and evaluation counts deleted',
    retentionDays,
    purge: async () => ({
      ...(await purgeOldAuditEntries(store, clock, retentionDays)),
      evaluationHours: await purgeOldEvaluationHours(knex, clock, retentionDays),
    }),
    count: (purged) => purged.management + purged.public + purged.evaluationHours,
    logger,
  });
}
