import { describe, expect, it } from 'vitest';
import { runScheduler, type SchedulerJobs } from '../../../src/features/scheduler/scheduler.js';

/** Jobs over a queue of due items; records each call. */
function jobs(duePublishes: number, dueSteps: number, refusedForever = 0) {
  const calls: string[] = [];
  let publishes = duePublishes;
  let steps = dueSteps;
  const j: SchedulerJobs = {
    async publishDueTargets(limit = 100) {
      calls.push('publish');
      const take = Math.min(limit - Math.min(limit, refusedForever), publishes);
      publishes -= take;
      return { published: take, refused: Math.min(limit, refusedForever) };
    },
    async advanceRollouts(limit = 100) {
      calls.push('advance');
      const take = Math.min(limit, steps);
      steps -= take;
      return { advanced: take, completed: 0 };
    },
  };
  return { j, calls };
}

describe('runScheduler', () => {
  it('publishes before advancing rollouts', async () => {
    const { j, calls } = jobs(1, 1);
    expect(await runScheduler(j)).toEqual({ published: 1, refused: 0, advanced: 1, completed: 0 });
    expect(calls).toEqual(['publish', 'advance']);
  });

  it('works through a backlog in batches within one tick', async () => {
    const { j, calls } = jobs(25, 12);
    expect(await runScheduler(j, undefined, 10)).toEqual({ published: 25, refused: 0, advanced: 12, completed: 0 });
    expect(calls).toEqual(['publish', 'publish', 'publish', 'advance', 'advance']);
  });

  it('does not spin on targets that stay refused', async () => {
    const { j, calls } = jobs(0, 0, 10);
    const run = await runScheduler(j, undefined, 10);
    expect(run.refused).toBe(10);
    expect(calls.filter((c) => c === 'publish').length).toBe(1);
  });
});
