import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { CopyButton } from '../../ui/CopyButton';
import { Dialog, DialogActions, useDialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';
import { exactTime } from '../../ui/When';

/** Grace periods offered, in seconds: how long the previous secret keeps signing beside the new one. */
const gracePeriods: Array<[number, string]> = [
  [3600, 'an hour'],
  [86_400, 'a day'],
  [604_800, 'a week'],
  [0, 'none: the previous secret stops now'],
];

/** "Rotate secret": asks for the grace period, then shows the new secret once. */
export function RotateSecret({ project, webhook }: { project: string; webhook: Schemas['Webhook'] }) {
  const dialog = useDialog();
  const action = useAction();
  const [grace, setGrace] = useState('86400');
  const [rotated, setRotated] = useState<Schemas['WebhookSecretRotation']>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action
      .run(async () => {
        const answer = await unwrap(
          api.POST('/projects/{projectKey}/webhooks/{webhookUlid}/rotate-secret', {
            params: { path: { projectKey: project, webhookUlid: webhook.ulid } },
            body: { grace_period_seconds: Number(grace) },
          }),
        );
        setRotated(answer.data);
      })
      .then((done) => done && dialog.close());
  };
  return (
    <>
      <button type="button" onClick={dialog.open}>
        Rotate secret<span className="visually-hidden"> of {webhook.url}</span>
      </button>
      <Dialog control={dialog} title="Rotate the signing secret?">
        <form onSubmit={submit}>
          <p>
            A new secret signs every delivery from now on. During the grace period the previous secret signs too (two signatures in{' '}
            <code>webhook-signature</code>), so the receiver can switch without missing a delivery.
          </p>
          <SelectField
            label="Grace period"
            name="grace_period_seconds"
            value={grace}
            onChange={(e) => setGrace(e.target.value)}
            problem={action.problem}
          >
            {gracePeriods.map(([seconds, text]) => (
              <option key={seconds} value={seconds}>
                {text}
              </option>
            ))}
          </SelectField>
          <DialogActions control={dialog} disabled={action.busy} problem={action.problem}>
            Rotate secret
          </DialogActions>
        </form>
      </Dialog>
      {rotated ? (
        <p className="secret" role="status">
          New signing secret, shown only now: <code data-testid="rotated-secret">{rotated.secret}</code>{' '}
          <CopyButton text={rotated.secret} />{' '}
          {rotated.previous_secret_expires_at
            ? `The previous secret signs too until ${exactTime(rotated.previous_secret_expires_at)}.`
            : 'The previous secret no longer signs.'}
        </p>
      ) : null}
    </>
  );
}
