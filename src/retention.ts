import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { BackgroundTask } from './core.js';
import { poller } from './poller.js';

const dayMs = 86_400_000;

/** The time (ms) before which a record is older than `retentionDays`. */
export function retentionCutoff(clock: Clock, retentionDays: number): number {
  return clock.now().getTime() - retentionDays * dayMs;
}

/**
 * Calls `deleteBatch` until it deletes fewer than `batch` rows, and returns how many it deleted.
 * Batches keep each statement short; several instances may run it at once.
 */
export async function deleteInBatches(deleteBatch: (batch: number) => Promise<number>, batch: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await deleteBatch(batch);
    deleted += n;
    if (n < batch) return deleted;
  }
}

/**
 * A task that runs `purge` every `intervalMs` and logs what it deleted, if anything. Every 10
 * minutes by default: cheap when there is nothing to delete, and instances that live less than an
 * hour still get to run it.
 */
export function retentionTask<Purged>(options: {
  name: string;
  /** The log message when something was deleted. */
  message: string;
  retentionDays: number;
  purge: () => Promise<Purged>;
  /** How many records a purge deleted in all. */
  count: (purged: Purged) => number;
  logger: Logger;
  intervalMs?: number;
}): BackgroundTask {
  const { name, message, retentionDays, purge, count, logger, intervalMs = 600_000 } = options;
  return poller(
    name,
    intervalMs,
    async () => {
      const purged = await purge();
      if (count(purged) > 0) logger.info({ purged, retentionDays }, message);
    },
    logger,
  );
}
