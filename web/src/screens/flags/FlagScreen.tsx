import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { Link } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAction, useAsync } from '../../ui/useAsync';
import { EnvironmentPanel } from './EnvironmentPanel';

function Values({ project, flag, values, onChange }: { project: string; flag: string; values: Schemas['FlagValue'][]; onChange: () => void }) {
  const path = { projectKey: project, flagKey: flag };
  const [display, setDisplay] = useState('');
  const action = useAction();
  const add = (event: FormEvent) => {
    event.preventDefault();
    void action.run(async () => {
      await unwrap(api.POST('/projects/{projectKey}/flags/{flagKey}/values', { params: { path }, body: { display } }));
      setDisplay('');
      onChange();
    });
  };
  const setDefault = (valueUlid: string) =>
    void action.run(async () => {
      await unwrap(api.PATCH('/projects/{projectKey}/flags/{flagKey}/values/{valueUlid}/default', { params: { path: { ...path, valueUlid } } }));
      onChange();
    });
  const remove = (valueUlid: string) =>
    void action.run(async () => {
      await unwrap(api.DELETE('/projects/{projectKey}/flags/{flagKey}/values/{valueUlid}', { params: { path: { ...path, valueUlid } } }));
      onChange();
    });
  return (
    <section aria-labelledby="values-title">
      <h2 id="values-title">Values</h2>
      <ul className="values">
        {values.map((value) => (
          <li key={value.ulid}>
            <code>{value.display}</code> {value.default ? <strong>(default)</strong> : <button type="button" onClick={() => setDefault(value.ulid)}>Make {value.display} the default</button>}{' '}
            <button type="button" onClick={() => remove(value.ulid)}>
              Delete {value.display}
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={add} className="inline">
        <Field label="New value" name="display" required value={display} onChange={(e) => setDisplay(e.target.value)} problem={action.problem} />
        <button type="submit" disabled={action.busy}>
          Add value
        </button>
      </form>
      <ErrorMessage problem={action.problem} />
    </section>
  );
}

function Details({ project, flag, onSaved }: { project: string; flag: Schemas['Flag']; onSaved: () => void }) {
  const [name, setName] = useState(flag.name);
  const [description, setDescription] = useState(flag.description ?? '');
  const [permanent, setPermanent] = useState(flag.permanent);
  const save = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(async () => {
      await unwrap(
        api.PUT('/projects/{projectKey}/flags/{flagKey}', {
          params: { path: { projectKey: project, flagKey: flag.key } },
          body: { name, permanent, description: description || null, include_in_mobile: flag.include_in_mobile, include_in_client: flag.include_in_client },
        }),
      );
      onSaved();
    });
  };
  return (
    <form onSubmit={submit} className="inline" aria-label="Flag details">
      <Field label="Name" name="name" value={name} onChange={(e) => setName(e.target.value)} problem={save.problem} />
      <Field label="Description" name="description" value={description} onChange={(e) => setDescription(e.target.value)} problem={save.problem} />
      <label>
        <input type="checkbox" checked={permanent} onChange={(e) => setPermanent(e.target.checked)} /> Permanent (never stale)
      </label>
      <button type="submit" disabled={save.busy}>
        Save details
      </button>
      <ErrorMessage problem={save.problem} />
    </form>
  );
}

/** A flag: its details, values, and for each environment what it serves, its drafts and history. */
export function FlagScreen({ project, flag }: { project: string; flag: string }) {
  const path = { projectKey: project, flagKey: flag };
  const details = useAsync(() => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}', { params: { path } })), [project, flag]);
  const values = useAsync(() => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}/values', { params: { path } })), [project, flag]);
  const environments = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project }, query: { per_page: 100 } } })),
    [project],
  );
  return (
    <section>
      <p>
        <Link to={`/projects/${project}/flags`}>All flags of {project}</Link>
      </p>
      <h1>
        {details.data?.data.name ?? flag} <code>{flag}</code>
      </h1>
      <ErrorMessage problem={details.problem ?? values.problem ?? environments.problem} />
      {details.data ? <Details key={details.data.data.updated_at} project={project} flag={details.data.data} onSaved={details.reload} /> : null}
      {values.data ? <Values project={project} flag={flag} values={values.data.data} onChange={values.reload} /> : null}
      {values.data && environments.data
        ? environments.data.data.map((environment) => (
            <EnvironmentPanel key={environment.ulid} project={project} flag={flag} environment={environment} values={values.data?.data ?? []} />
          ))
        : null}
    </section>
  );
}
