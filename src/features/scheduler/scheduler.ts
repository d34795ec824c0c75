import type { Logger } from 'pino';

/** What the scheduler drives (TargetPublisher in src/features/targets). */
export interface SchedulerJobs {
  publishDueTargets(limit?: number): Promise<{ published: number; refused: number }>;
  advanceRollouts(limit?: number): Promise<{ advanced: number; completed: number }>;
}

export interface SchedulerRun {
  published: number;
  refused: number;
  advanced: number;
  completed: number;
}

/**
 * One scheduler tick: due scheduled publishes first (a publish may start an automatic rollout),
 * then due rollout steps. Works through a backlog in batches of `batch` until a batch comes back
 * short, so a burst of jobs due at the same moment is not spread over many ticks. Rollouts take
 * at most one step per tick: the next step is due only a full interval after this one.
 */
export async function runScheduler(jobs: SchedulerJobs, logger?: Logger, batch = 100, maxBatches = 50): Promise<SchedulerRun> {
  const run: SchedulerRun = { published: 0, refused: 0, advanced: 0, completed: 0 };
  for (let i = 0; i < maxBatches; i++) {
    const { published, refused } = await jobs.publishDueTargets(batch);
    run.published += published;
    run.refused += refused;
    // Refused targets stay scheduled and are returned again: stop when nothing new was published.
    if (published + refused < batch || published === 0) break;
  }
  for (let i = 0; i < maxBatches; i++) {
    const { advanced, completed } = await jobs.advanceRollouts(batch);
    run.advanced += advanced;
    run.completed += completed;
    if (advanced + completed < batch) break;
  }
  if (run.published + run.advanced + run.completed + run.refused > 0) logger?.info({ scheduler: run }, 'scheduler run');
  return run;
}
