import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { CheckboxField, Field, TextAreaField } from '../../ui/Field';
import { useAction } from '../../ui/useAsync';

/** A flag's details: name, description, tags, permanent, and which SDK payloads carry it. */
export function FlagDetails({ project, flag, onSaved }: { project: string; flag: Schemas['Flag']; onSaved: () => void }) {
  const [name, setName] = useState(flag.name);
  const [description, setDescription] = useState(flag.description ?? '');
  const [permanent, setPermanent] = useState(flag.permanent);
  const [mobile, setMobile] = useState(flag.include_in_mobile);
  const [client, setClient] = useState(flag.include_in_client);
  const [tags, setTags] = useState(flag.tags.join(', '));
  const save = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: Schemas['FlagUpdate'] = {
      name,
      permanent,
      description: description || null,
      include_in_mobile: mobile,
      include_in_client: client,
      tags: tags
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    };
    void save.run(async () => {
      await unwrap(
        api.PUT('/projects/{projectKey}/flags/{flagKey}', { params: { path: { projectKey: project, flagKey: flag.key } }, body }),
      );
      onSaved();
    });
  };
  return (
    <form onSubmit={submit} className="details" aria-label="Flag details">
      <div className="inline">
        <Field label="Name" name="name" value={name} onChange={(e) => setName(e.target.value)} problem={save.problem} />
        {/* A text area as wide as the form, so a description of a few sentences shows whole. */}
        <TextAreaField
          label="Description"
          name="description"
          rows={3}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          problem={save.problem}
        />
        <Field
          label="Tags (comma-separated)"
          name="tags"
          value={tags}
          onChange={(e) => setTags(e.target.value)}
          problem={save.problem}
          hint="Lower-case letters, digits, - _ : . (e.g. team:payments)"
        />
      </div>
      <div className="inline">
        <CheckboxField
          label="Permanent (never stale)"
          name="permanent"
          checked={permanent}
          onChange={(e) => setPermanent(e.target.checked)}
          problem={save.problem}
        />
        <CheckboxField
          label="In mobile payloads"
          name="include_in_mobile"
          checked={mobile}
          onChange={(e) => setMobile(e.target.checked)}
          problem={save.problem}
        />
        <CheckboxField
          label="In client (browser) payloads"
          name="include_in_client"
          checked={client}
          onChange={(e) => setClient(e.target.checked)}
          problem={save.problem}
        />
      </div>
      <button type="submit" disabled={save.busy}>
        Save details
      </button>
      <ErrorMessage problem={save.problem} />
    </form>
  );
}
