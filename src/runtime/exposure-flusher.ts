import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { ExposureBuffer } from './exposure-buffer.js';
import type { ExposureStore } from './exposure-store.js';
import { type IntervalFlusher, intervalFlusher } from './interval-flusher.js';

export type ExposureFlusher = IntervalFlusher;

/** Drains the exposure buffer every `intervalMs`; stop() writes what is left. Flushes never overlap. */
export function exposureFlusher(
  buffer: ExposureBuffer,
  store: ExposureStore,
  clock: Clock,
  intervalMs: number,
  logger: Logger,
): ExposureFlusher {
  return intervalFlusher('exposure-flusher', intervalMs, async () => {
    if (buffer.size === 0) return;
    const sketches = buffer.drain();
    try {
      const failed = await store.write(sketches, clock.now().toISOString());
      if (failed.length > 0) {
        logger.warn({ failures: failed.length }, 'exposure counts kept for the next flush');
        buffer.restore(failed);
      }
    } catch (error) {
      logger.error({ err: error }, 'exposure counts could not be written');
      buffer.restore(sketches);
    }
  });
}
