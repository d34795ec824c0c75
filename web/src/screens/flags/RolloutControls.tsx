import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAction } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './EnvironmentPanel';

/** The automatic rollout's steps, as the management document describes them. */
const automaticSteps = [1, 5, 10, 25, 50, 100];
const nextStep = (current: number | null) => automaticSteps.find((step) => step > (current ?? 0));

/** A published target's rollout: progress, pause and resume, percentage, complete, remove. */
export function RolloutControls({ context, target, onChange }: { context: PanelContext; target: Schemas['Target']; onChange: () => void }) {
  const path = { ...targetsPath(context), targetUlid: target.ulid };
  const [percentage, setPercentage] = useState(String(target.rollout_percentage ?? ''));
  const action = useAction();
  const run = (work: () => Promise<unknown>) => void action.run(async () => (await work(), onChange()));
  const rolloutPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rollout' as const;
  return (
    <section className="rollout" aria-label={`Rollout in ${context.environment.name}`}>
      <p role="status">
        Rollout: {target.rollout_mode}, <strong>{target.rollout_percentage}%</strong>, {target.rollout_status}
      </p>
      <progress max={100} value={target.rollout_percentage ?? 0} aria-label="Rollout percentage" />
      {target.rollout_mode === 'automatic' && nextStep(target.rollout_percentage) !== undefined ? (
        <p>Next automatic step: {nextStep(target.rollout_percentage)}% (steps 1, 5, 10, 25, 50, 100 %; paused rollouts wait).</p>
      ) : null}
      {target.rollout_status === 'active' ? (
        <button type="button" onClick={() => run(() => unwrap(api.PUT(rolloutPath, { params: { path }, body: { action: 'pause' } })))}>
          Pause rollout
        </button>
      ) : (
        <button type="button" onClick={() => run(() => unwrap(api.PUT(rolloutPath, { params: { path }, body: { action: 'resume' } })))}>
          Resume rollout
        </button>
      )}
      {target.rollout_mode === 'manual' && target.rollout_status === 'active' ? (
        <span className="inline">
          <label>
            Percentage <input type="number" min={1} max={100} value={percentage} onChange={(e) => setPercentage(e.target.value)} />
          </label>
          <button type="button" onClick={() => run(() => unwrap(api.PUT(rolloutPath, { params: { path }, body: { rollout_percentage: Number(percentage) } })))}>
            Set percentage
          </button>
        </span>
      ) : null}
      <button type="button" onClick={() => run(() => unwrap(api.POST(`${rolloutPath}/complete`, { params: { path } })))}>
        Complete rollout
      </button>
      <button type="button" onClick={() => run(() => unwrap(api.DELETE(rolloutPath, { params: { path } })))}>
        Remove rollout
      </button>
      <ErrorMessage problem={action.problem} />
    </section>
  );
}
