import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';
import { bodyOf, draftOf, EnvironmentFields } from './EnvironmentFields';

export function NewEnvironment({ project, onCreated }: { project: string; onCreated: () => void }) {
  const [key, setKey] = useState('');
  const [draft, setDraft] = useState(() => draftOf());
  const create = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      await unwrap(
        api.POST('/projects/{projectKey}/environments', { params: { path: { projectKey: project } }, body: { key, ...bodyOf(draft) } }),
      );
      setKey('');
      setDraft(draftOf());
      onCreated();
    });
  };
  return (
    <form onSubmit={submit} aria-label="New environment">
      <h2>New environment</h2>
      <div className="inline">
        <Field
          label="Key"
          name="key"
          required
          value={key}
          onChange={(e) => setKey(e.target.value)}
          problem={create.problem}
          hint="cannot change later"
        />
        <EnvironmentFields draft={draft} onChange={setDraft} problem={create.problem} />
      </div>
      <button type="submit" disabled={create.busy}>
        Create environment
      </button>
      <ErrorMessage problem={create.problem} />
    </form>
  );
}
