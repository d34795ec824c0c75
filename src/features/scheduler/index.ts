import type { BackgroundTask } from '../../core.js';
import { poller } from '../../poller.js';
import type { FeatureDeps } from '../feature.js';
import { createTargetPublisher } from '../targets/index.js';
import { runScheduler, type SchedulerJobs } from './scheduler.js';

/**
 * The scheduler (specs/management.yaml, tag Rollouts): every VEXIL_SCHEDULER_INTERVAL_MS it publishes the
 * scheduled targets whose `scheduled_at` has come and advances automatic rollouts whose step
 * interval (VEXIL_ROLLOUT_STEP_MS) has passed, with audit actor `system`. It runs on every
 * instance: each change is claimed by a conditional update under the environment's row lock
 * (src/features/targets), so each scheduled target is published once and each step taken once,
 * and all state lives in the database, so a restart neither loses nor repeats a due job.
 */
export function createSchedulerFeature(deps: FeatureDeps) {
  const publisher = createTargetPublisher(deps);
  return { tasks: [schedulerTask(publisher, deps)] };
}

export function schedulerTask(jobs: SchedulerJobs, deps: Pick<FeatureDeps, 'config' | 'logger' | 'metrics'>): BackgroundTask {
  const { schedulerRuns, schedulerChanges } = deps.metrics;
  const run = () =>
    runScheduler(jobs, deps.logger).then(
      (done) => {
        schedulerRuns.series('success').inc();
        for (const change of ['published', 'refused', 'advanced', 'completed'] as const) schedulerChanges.series(change).inc(done[change]);
      },
      (error: unknown) => {
        schedulerRuns.series('failure').inc();
        throw error;
      },
    );
  return poller('scheduler', deps.config.schedulerIntervalMs, run, deps.logger);
}
