import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { DeleteAfterTyping } from '../../ui/TypedConfirmation';
import { useAction } from '../../ui/useAsync';
import { EnvironmentKeys } from './EnvironmentKeys';
import { bodyOf, draftOf, EnvironmentFields } from './EnvironmentFields';

/** One environment: its settings, its keys, and its deletion after typing its key. */
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
  const path = { projectKey: project, environmentKey: environment.key };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void save.run(async () => {
      await unwrap(api.PUT('/projects/{projectKey}/environments/{environmentKey}', { params: { path }, body: bodyOf(draft) }));
      setSaved(true);
      onChanged();
    });
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
      <EnvironmentKeys project={project} environment={environment} />
      <details className="manage">
        <summary>Delete {environment.key}</summary>
        <p>
          Deletes the environment with what its flags serve there, its rules and its keys (which stop working at once). Audit entries are
          kept.
        </p>
        <DeleteAfterTyping
          expected={environment.key}
          what={`delete the environment ${environment.key}`}
          remove={async () => {
            await unwrap(api.DELETE('/projects/{projectKey}/environments/{environmentKey}', { params: { path } }));
            onChanged();
          }}
        >
          Delete environment {environment.key}
        </DeleteAfterTyping>
      </details>
    </article>
  );
}
