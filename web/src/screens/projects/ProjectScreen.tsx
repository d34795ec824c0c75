import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { Link, navigate } from '../../app/router';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { TypedConfirmation } from '../../ui/TypedConfirmation';
import { useAction, useAsync } from '../../ui/useAsync';

function EnvironmentSettings({ project, environment, onSaved }: { project: string; environment: Schemas['Environment']; onSaved: () => void }) {
  const [comments, setComments] = useState(environment.comments_required);
  const [confirmation, setConfirmation] = useState(environment.confirmation_required);
  const [color, setColor] = useState(environment.color);
  const save = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(async () => {
      await unwrap(
        api.PUT('/projects/{projectKey}/environments/{environmentKey}', {
          params: { path: { projectKey: project, environmentKey: environment.key } },
          body: { name: environment.name, description: environment.description, color, comments_required: comments, confirmation_required: confirmation },
        }),
      );
      onSaved();
    });
  };
  return (
    <form onSubmit={submit} className="inline" aria-label={`Settings of ${environment.name}`}>
      <Field label="Colour" name="color" value={color} onChange={(e) => setColor(e.target.value)} problem={save.problem} />
      <label>
        <input type="checkbox" checked={comments} onChange={(e) => setComments(e.target.checked)} /> Comment required to publish
      </label>
      <label>
        <input type="checkbox" checked={confirmation} onChange={(e) => setConfirmation(e.target.checked)} /> Typed confirmation required to publish
      </label>
      <button type="submit" disabled={save.busy}>
        Save {environment.name}
      </button>
      <ErrorMessage problem={save.problem} />
    </form>
  );
}

function EnvironmentKeys({ project, environment }: { project: string; environment: Schemas['Environment'] }) {
  const path = { projectKey: project, environmentKey: environment.key };
  const keys = useAsync(() => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/keys', { params: { path } })), [project, environment.key]);
  const [kind, setKind] = useState<Schemas['EnvironmentKeyKind']>('server');
  const [secret, setSecret] = useState<string>();
  const action = useAction();
  const create = () =>
    void action.run(async () => {
      const created = await unwrap(api.POST('/projects/{projectKey}/environments/{environmentKey}/keys', { params: { path }, body: { kind } }));
      setSecret(created.data.key);
      keys.reload();
    });
  const revoke = (keyUlid: string) =>
    void action.run(async () => {
      await unwrap(api.DELETE('/projects/{projectKey}/environments/{environmentKey}/keys/{keyUlid}', { params: { path: { ...path, keyUlid } } }));
      keys.reload();
    });
  return (
    <div>
      <h3>Keys of {environment.name}</h3>
      <ErrorMessage problem={keys.problem ?? action.problem} />
      <ul>
        {keys.data?.data.map((key) => (
          <li key={key.ulid}>
            {key.name} <code>{key.masked_key}</code> {key.revoked_at ? '(revoked)' : <button type="button" onClick={() => revoke(key.ulid)}>Revoke {key.name}</button>}
          </li>
        ))}
      </ul>
      {secret ? (
        <p className="secret" role="status">
          New key, shown only now: <code data-testid="new-key">{secret}</code> <CopyButton text={secret} />
        </p>
      ) : null}
      <label>
        Kind{' '}
        <select value={kind} onChange={(e) => setKind(e.target.value as Schemas['EnvironmentKeyKind'])}>
          <option value="server">server</option>
          <option value="mobile">mobile</option>
          <option value="client">client</option>
        </select>
      </label>{' '}
      <button type="button" onClick={create} disabled={action.busy}>
        Create {environment.name} key
      </button>
    </div>
  );
}

export function ProjectScreen({ project }: { project: string }) {
  const environments = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project }, query: { per_page: 100 } } })),
    [project],
  );
  const [confirmDelete, setConfirmDelete] = useState('');
  const remove = useAction();
  return (
    <section>
      <h1>Project {project}</h1>
      <nav aria-label={`Project ${project}`} className="inline">
        <Link to={`/projects/${project}/flags`}>Flags of {project}</Link> · <Link to={`/projects/${project}/segments`}>Segments</Link> ·{' '}
        <Link to={`/projects/${project}/insights`}>Insights</Link>
      </nav>
      <ErrorMessage problem={environments.problem} />
      {environments.data?.data.map((environment) => (
        <article key={environment.ulid} className="environment" style={{ borderColor: environment.color }}>
          <h2>{environment.name}</h2>
          <EnvironmentSettings project={project} environment={environment} onSaved={environments.reload} />
          <EnvironmentKeys project={project} environment={environment} />
        </article>
      ))}
      <h2>Delete the project</h2>
      <TypedConfirmation expected={project} value={confirmDelete} onChange={setConfirmDelete} what="delete the project and everything in it" />
      <button
        type="button"
        disabled={confirmDelete !== project || remove.busy}
        onClick={() => void remove.run(async () => {
          await unwrap(api.DELETE('/projects/{projectKey}', { params: { path: { projectKey: project } } }));
          navigate('/projects');
        })}
      >
        Delete project
      </button>
      <ErrorMessage problem={remove.problem} />
    </section>
  );
}
