import { useState, type FormEvent } from 'react';
import { api, fieldMessages, unwrap, type Schemas } from '../../api/client';
import { Dialog, DialogActions, useDialog } from '../../ui/Dialog';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';
import { When } from '../../ui/When';
import { targetsPath, type PanelContext } from './panel-context';

const rolloutPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/rollout' as const;

/** A rollout change; its `run` receives the environment key the person typed, where it is required. */
interface Change {
  label: string;
  run: (confirmation: string | undefined) => Promise<unknown>;
}

/** When and to what the server's scheduler takes an automatic rollout next, as the API says. */
function NextStep({ target }: { target: Schemas['Target'] }) {
  const { rollout_next_step_at: at, rollout_next_percentage: percentage } = target;
  if (at !== null && percentage !== null) {
    return (
      <p>
        Next automatic step: <strong>{percentage}%</strong>
        {percentage === 100 ? ' (completes the rollout)' : ''}, <When iso={at} />.
      </p>
    );
  }
  return target.rollout_mode === 'automatic' && target.rollout_status === 'paused' ? (
    <p>Paused: no automatic step until the rollout is resumed.</p>
  ) : null;
}

/**
 * A published target's rollout: progress, pause and resume, percentage, complete, remove. Where
 * the environment requires typed confirmation, each change first asks for the environment key.
 */
export function RolloutControls({ context, target, onChange }: { context: PanelContext; target: Schemas['Target']; onChange: () => void }) {
  const { environment } = context;
  const path = { ...targetsPath(context), targetUlid: target.ulid };
  const [percentage, setPercentage] = useState(String(target.rollout_percentage ?? ''));
  const [pending, setPending] = useState<Change>();
  const [confirmation, setConfirmation] = useState('');
  const dialog = useDialog();
  const action = useAction();
  const perform = (change: Change, typed: string | undefined) =>
    void action.run(async () => {
      await change.run(typed);
      // The control pressed may be gone after the change: the panel takes focus (onChange).
      if (dialog.isOpen) dialog.close({ restoreFocus: false });
      onChange();
    });
  const request = (change: Change) => {
    if (!environment.confirmation_required) return perform(change, undefined);
    action.clear();
    setConfirmation('');
    setPending(change);
    dialog.open();
  };
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (pending) perform(pending, confirmation);
  };
  const update = (label: string, body: { action: 'pause' | 'resume' } | { rollout_percentage: number }): Change => ({
    label,
    run: (typed) => unwrap(api.PUT(rolloutPath, { params: { path }, body: typed === undefined ? body : { ...body, confirmation: typed } })),
  });
  const complete: Change = {
    label: 'Complete rollout',
    run: (typed) =>
      unwrap(api.POST(`${rolloutPath}/complete`, { params: { path }, body: typed === undefined ? {} : { confirmation: typed } })),
  };
  const remove: Change = {
    label: 'Remove rollout',
    run: (typed) => unwrap(api.DELETE(rolloutPath, { params: { path, query: typed === undefined ? {} : { confirmation: typed } } })),
  };
  return (
    <section className="rollout" aria-label={`Rollout in ${environment.name}`}>
      <p role="status">
        Rollout: {target.rollout_mode}, <strong>{target.rollout_percentage}%</strong>, {target.rollout_status}
      </p>
      <progress max={100} value={target.rollout_percentage ?? 0} aria-label={`Rollout percentage in ${environment.name}`} />
      <NextStep target={target} />
      <div className="actions">
        {target.rollout_status === 'active' ? (
          <button type="button" onClick={() => request(update('Pause rollout', { action: 'pause' }))}>
            Pause rollout
          </button>
        ) : (
          <button type="button" onClick={() => request(update('Resume rollout', { action: 'resume' }))}>
            Resume rollout
          </button>
        )}
        {target.rollout_mode === 'manual' && target.rollout_status === 'active' ? (
          <span className="inline">
            <Field
              label="New percentage"
              name="rollout_percentage"
              type="number"
              min={1}
              max={100}
              value={percentage}
              onChange={(e) => setPercentage(e.target.value)}
              problem={dialog.isOpen ? undefined : action.problem}
            />
            <button
              type="button"
              onClick={() => request(update(`Set the rollout to ${percentage}%`, { rollout_percentage: Number(percentage) }))}
            >
              Set percentage
            </button>
          </span>
        ) : null}
        <button type="button" onClick={() => request(complete)}>
          Complete rollout
        </button>
        <button type="button" onClick={() => request(remove)}>
          Remove rollout
        </button>
      </div>
      {dialog.isOpen ? null : <ErrorMessage problem={action.problem} />}
      <Dialog control={dialog} title={`${pending?.label ?? 'Change the rollout'} in ${environment.name}`}>
        <form onSubmit={confirm} aria-label={`Confirm the rollout change in ${environment.name}`}>
          <TypedConfirmation
            expected={environment.key}
            value={confirmation}
            onChange={setConfirmation}
            what={`change the rollout in ${environment.name}`}
            autoFocus
            messages={fieldMessages(action.problem, 'confirmation')}
          />
          <DialogActions control={dialog} disabled={action.busy || confirmation !== environment.key} problem={action.problem}>
            {pending?.label ?? 'Confirm'}
          </DialogActions>
        </form>
      </Dialog>
    </section>
  );
}
