import { useState, type FormEvent } from 'react';
import { api, fieldMessages, unwrap, type Schemas } from '../../api/client';
import { Dialog, DialogActions, useDialog } from '../../ui/Dialog';
import { Field } from '../../ui/Field';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './panel-context';

type RolloutChoice = 'none' | Schemas['RolloutMode'];

/** The publish request for what the dialog holds (TargetPublish). */
function publishBody(
  choice: { comment: string; scheduledAt: string; rollout: RolloutChoice; percentage: string; confirmation: string },
  draft: Schemas['Target'],
  confirm: boolean,
): Schemas['TargetPublish'] {
  const body: Schemas['TargetPublish'] = { comment: choice.comment || null };
  if (choice.scheduledAt) body.scheduled_at = new Date(choice.scheduledAt).toISOString();
  if (choice.rollout !== 'none') {
    body.rollout_enabled = true;
    body.rollout_mode = choice.rollout;
    if (choice.rollout === 'manual') body.rollout_percentage = Number(choice.percentage);
  } else if (draft.rollout_mode !== null) {
    // The draft carries a rollout (createRollout); "everyone at once" removes it.
    body.rollout_enabled = false;
  }
  if (confirm) body.confirmation = choice.confirmation;
  return body;
}

/**
 * Publishing a draft, in a modal dialog: comment (required where the environment says so),
 * schedule, rollout (manual percentage or automatic), and the typed key where confirmation is
 * required. Opened from the draft editor; focus returns to the panel once published.
 */
export function PublishDialog({
  context,
  draft,
  onPublished,
}: {
  context: PanelContext;
  draft: Schemas['Target'];
  onPublished: () => void;
}) {
  const { environment } = context;
  const dialog = useDialog();
  const [comment, setComment] = useState(draft.comment ?? '');
  const [scheduledAt, setScheduledAt] = useState('');
  const [rollout, setRollout] = useState<RolloutChoice>(draft.rollout_mode ?? 'none');
  const [percentage, setPercentage] = useState(String(draft.rollout_percentage ?? 10));
  const [confirmation, setConfirmation] = useState('');
  const action = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = publishBody({ comment, scheduledAt, rollout, percentage, confirmation }, draft, environment.confirmation_required);
    void action.run(async () => {
      await unwrap(
        api.PUT('/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/targets/{targetUlid}/publish', {
          params: { path: { ...targetsPath(context), targetUlid: draft.ulid } },
          body,
        }),
      );
      dialog.close({ restoreFocus: false });
      onPublished();
    });
  };
  const confirmationMessages = fieldMessages(action.problem, 'confirmation');
  return (
    <>
      <button type="button" onClick={dialog.open}>
        Review and publish in {environment.name}…
      </button>
      <Dialog control={dialog} title={`Publish in ${environment.name}`}>
        <form onSubmit={submit} className="publish" aria-label={`Publish in ${environment.name}`}>
          <Field
            label={environment.comments_required ? 'Comment (required here)' : 'Comment'}
            name="comment"
            required={environment.comments_required}
            autoFocus
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            problem={action.problem}
          />
          <Field
            label="Schedule for (optional)"
            name="scheduled_at"
            type="datetime-local"
            value={scheduledAt}
            onChange={(e) => setScheduledAt(e.target.value)}
            problem={action.problem}
          />
          <fieldset>
            <legend>Rollout</legend>
            {(['none', 'manual', 'automatic'] as const).map((mode) => (
              <label key={mode}>
                <input
                  type="radio"
                  name={`rollout-${environment.key}`}
                  value={mode}
                  checked={rollout === mode}
                  onChange={() => setRollout(mode)}
                />{' '}
                {mode === 'none' ? 'everyone at once' : mode}
              </label>
            ))}
            {rollout === 'manual' ? (
              <Field
                label="Percentage"
                name="rollout_percentage"
                type="number"
                min={1}
                max={100}
                value={percentage}
                onChange={(e) => setPercentage(e.target.value)}
                problem={action.problem}
              />
            ) : null}
            {rollout === 'automatic' ? (
              <p className="hint">Starts at 1 % and advances through 5, 10, 25, 50 and 100 %, one step per interval.</p>
            ) : null}
          </fieldset>
          {environment.confirmation_required ? (
            <TypedConfirmation
              expected={environment.key}
              value={confirmation}
              onChange={setConfirmation}
              what={`publish in ${environment.name}`}
              messages={confirmationMessages}
            />
          ) : null}
          <DialogActions
            control={dialog}
            disabled={action.busy || (environment.confirmation_required && confirmation !== environment.key)}
            problem={action.problem}
          >
            Publish to {environment.name}
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
