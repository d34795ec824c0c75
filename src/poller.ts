import type { Logger } from 'pino';
import type { BackgroundTask } from './core.js';

/** Runs `work` every `intervalMs`, never two runs at once; errors are logged, not thrown. */
export function poller(name: string, intervalMs: number, work: () => Promise<unknown>, logger: Logger): BackgroundTask {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    running = work().catch((err: unknown) => logger.error({ err, task: name }, 'background task failed'));
    await running;
    running = undefined;
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  return {
    name,
    start() {
      stopped = false;
      timer = setTimeout(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
