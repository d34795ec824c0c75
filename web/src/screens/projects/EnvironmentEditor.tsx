import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { useDialog } from '../../ui/Dialog';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { DeleteAfterTyping } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';
import { EnvironmentKeys } from './EnvironmentKeys';
import { bodyOf, draftOf, EnvironmentFields } from './EnvironmentFields';
import { SettingsConfirmDialog } from './SettingsConfirmDialog';

/**
 * One environment: its settings, its keys, and its deletion after typing its key. Where the
 * environment requires typed confirmation, every save asks for its key in a dialog and the
 * deletion sends the typed key as its confirmation (the API refuses both otherwise).
 */
export function EnvironmentEditor({
  project,
  environment,
  onChanged,
}: {
  project: string;
  environment: Schemas['Environment'];
  onChanged: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(environment));
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const confirm = useDialog();
  const path = { projectKey: project, environmentKey: environment.key };
  const send = async (confirmation?: string) => {
    const body = { ...bodyOf(draft), ...(confirmation === undefined ? {} : { confirmation }) };
    await unwrap(api.PUT('/projects/{projectKey}/environments/{environmentKey}', { params: { path }, body }));
    setSaved(true);
    onChanged();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    if (environment.confirmation_required) confirm.open();
    else void save.run(() => send());
  };
  return (
    <article className="environment" style={{ borderColor: environment.color }} aria-labelledby={`env-${environment.ulid}`}>
      <h2 id={`env-${environment.ulid}`}>
        {environment.name} <code>{environment.key}</code>
      </h2>
      <form onSubmit={submit} aria-label={`Settings of ${environment.key}`}>
        <div className="inline">
          <EnvironmentFields draft={draft} onChange={setDraft} problem={save.problem} />
        </div>
        <button type="submit" disabled={save.busy}>
          Save {environment.key}
        </button>
        {saved ? <span role="status">Saved.</span> : null}
        <ErrorMessage problem={save.problem} />
      </form>
      {environment.confirmation_required ? (
        <SettingsConfirmDialog
          control={confirm}
          environment={environment}
          lifting={!draft.confirmation_required}
          onConfirm={send}
          onRefused={(error) => void save.run(() => Promise.reject(error))}
        />
      ) : null}
      <EnvironmentKeys project={project} environment={environment} />
      <details className="manage">
        <summary>Delete {environment.key}</summary>
        <p>
          Deletes the environment with what its flags serve there, its rules and its keys (which stop working at once). Audit entries are
          kept.
          {environment.confirmation_required
            ? ` ${environment.name} requires typed confirmation: only here, by typing its key, can it be deleted.`
            : null}
        </p>
        <DeleteAfterTyping
          expected={environment.key}
          what={`delete the environment ${environment.key}`}
          remove={async (typed) => {
            // The typed key is the deletion's confirmation where the environment requires it.
            const query = environment.confirmation_required ? { confirmation: typed } : undefined;
            await unwrap(
              api.DELETE('/projects/{projectKey}/environments/{environmentKey}', { params: { path, ...(query ? { query } : {}) } }),
            );
            onChanged();
          }}
        >
          Delete environment {environment.key}
        </DeleteAfterTyping>
      </details>
    </article>
  );
}
