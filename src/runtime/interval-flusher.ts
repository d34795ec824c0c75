import type { BackgroundTask } from '../core.js';

export interface IntervalFlusher extends BackgroundTask {
  /** Writes what the buffer holds now (also what the interval and stop() do). */
  flush(): Promise<void>;
}

/**
 * The task of a buffer written out every `intervalMs` (telemetry, exposure counts): `flushOnce`
 * after each interval, and once more on stop() for what is left. Flushes never overlap: each
 * waits for the previous one.
 */
export function intervalFlusher(name: string, intervalMs: number, flushOnce: () => Promise<void>): IntervalFlusher {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let chain: Promise<void> = Promise.resolve();

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
    name,
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
