import type { Logger } from 'pino';
import { type IntervalFlusher, intervalFlusher } from './interval-flusher.js';
import type { FlagResolver, TelemetryBuffer } from './telemetry-buffer.js';
import type { TelemetryStore } from './telemetry-store.js';

export interface TelemetryFlusher extends IntervalFlusher {
  /** Rows written since start (for /metrics). */
  readonly written: number;
}

/**
 * Drains the telemetry buffer every `intervalMs` and writes it in batches; stop() writes what is
 * left. A batch that fails to write goes back into the (bounded) buffer for the next attempt.
 */
export function telemetryFlusher(
  buffer: TelemetryBuffer,
  store: TelemetryStore,
  resolve: FlagResolver,
  intervalMs: number,
  logger: Logger,
): TelemetryFlusher {
  let written = 0;

  const flushBody = async () => {
    const dropped = buffer.dropped;
    if (buffer.size === 0) return;
    const batch = buffer.drain(resolve);
    if (dropped > 0) logger.warn({ dropped }, 'telemetry buffer full: events were dropped');
    let failed;
    try {
      failed = await store.write(batch);
    } catch (error) {
      logger.error({ err: error }, 'telemetry batch could not be written');
      failed = batch;
    }
    const failures = failed.flags.length + failed.defaultReports.length + failed.contexts.length + failed.evaluationHours.length;
    written += batch.flags.length + batch.defaultReports.length + batch.contexts.length + batch.evaluationHours.length - failures;
    if (failures > 0) {
      logger.warn({ failures }, 'telemetry entries kept for the next flush');
      buffer.restore(failed);
    }
  };

  const task = intervalFlusher('telemetry-flusher', intervalMs, () =>
    flushBody().catch((error: unknown) => logger.error({ err: error }, 'telemetry flush failed')),
  );
  return {
    ...task,
    get written() {
      return written;
    },
  };
}
