import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { BackgroundTask } from '../core.js';
import type { ExposureBuffer } from './exposure-buffer.js';
import type { ExposureStore } from './exposure-store.js';

export interface ExposureFlusher extends BackgroundTask {
  /** Writes what the buffer holds now (also what the interval and stop() do). */
  flush(): Promise<void>;
}

/** Drains the exposure buffer every `intervalMs`; stop() writes what is left. Flushes never overlap. */
export function exposureFlusher(
  buffer: ExposureBuffer,
  store: ExposureStore,
  clock: Clock,
  intervalMs: number,
  logger: Logger,
): ExposureFlusher {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let chain: Promise<void> = Promise.resolve();

  const flushOnce = async () => {
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
  };
  const flush = () => {
    chain = chain.then(flushOnce);
    return chain;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void flush().finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  return {
    name: 'exposure-flusher',
    flush,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await flush();
    },
  };
}
