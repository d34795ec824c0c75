import type { Knex } from 'knex';
import type { Db } from '../../storage/db.js';
import type { Logger } from 'pino';
import { auditUlidLowerBound } from '../../audit/audit-ids.js';
import type { Clock } from '../../clock.js';
import type { BackgroundTask } from '../../core.js';
import { deleteInBatches, retentionCutoff, retentionTask } from '../../retention.js';
import { purgeOldEvaluationHours } from '../../runtime/evaluation-hours-retention.js';
import type { AuditLogStore } from './store-types.js';

/** What a purge deleted: entries of each log, and (when any) parts of the public log no request uses any more. */
export interface PurgedAuditEntries {
  management: number;
  public: number;
  /** Present only when parts were deleted, so that a purge of entries alone reads as before. */
  publicParts?: number;
}

/**
 * Deletes audit entries (both logs) older than `retentionDays`, in batches; 0 keeps everything.
 * Then the public log's parts last used before the same cutoff: only after their requests, which
 * are all older than the part's last use (a writer stores the part before its requests). One
 * cutoff for both, taken once: a later one could delete a part whose newer requests were kept.
 * Several instances may run it at once: deleting by primary key is idempotent.
 */
export async function purgeOldAuditEntries(
  store: AuditLogStore,
  db: Db,
  clock: Clock,
  retentionDays: number,
  batch = 1000,
): Promise<PurgedAuditEntries> {
  const purged: PurgedAuditEntries = { management: 0, public: 0 };
  if (retentionDays <= 0) return purged;
  const cutoff = retentionCutoff(clock, retentionDays);
  const before = auditUlidLowerBound(cutoff);
  for (const log of ['management', 'public'] as const) {
    purged[log] = await deleteInBatches((limit) => store.purge(db, log, before, limit), batch);
  }
  const lastSeenBefore = new Date(cutoff).toISOString();
  const parts = await deleteInBatches((limit) => store.purgePublicParts(db, lastSeenBefore, limit), batch);
  if (parts > 0) purged.publicParts = parts;
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
      ...(await purgeOldAuditEntries(store, knex, clock, retentionDays)),
      evaluationHours: await purgeOldEvaluationHours(knex, clock, retentionDays),
    }),
    count: (purged) => purged.management + purged.public + (purged.publicParts ?? 0) + purged.evaluationHours,
    logger,
  });
}
