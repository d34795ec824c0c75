import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { Link, navigate } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { Pager, useCursorPages } from '../../ui/Pager';
import { DeleteAfterTyping } from '../../ui/TypedConfirmation';
import { useAction, useAsync } from '../../ui/useAsync';
import '../../ui/admin.css';
import { EnvironmentEditor } from './EnvironmentEditor';
import { NewEnvironment } from './NewEnvironment';

function ProjectDetails({ project, onSaved }: { project: Schemas['Project']; onSaved: () => void }) {
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void save.run(async () => {
      await unwrap(api.PUT('/projects/{projectKey}', { params: { path: { projectKey: project.key } }, body: { name, description } }));
      setSaved(true);
      onSaved();
    });
  };
  return (
    <form onSubmit={submit} aria-label="Project details" className="inline">
      <Field label="Project name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={save.problem} />
      <Field
        label="Project description"
        name="description"
        size={50}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        problem={save.problem}
      />
      <button type="submit" disabled={save.busy}>
        Save project
      </button>
      {saved ? <span role="status">Saved.</span> : null}
      <ErrorMessage problem={save.problem} />
    </form>
  );
}

/** A project: its name and description, its environments with their keys, and its deletion. */
export function ProjectScreen({ project }: { project: string }) {
  const details = useAsync(() => unwrap(api.GET('/projects/{projectKey}', { params: { path: { projectKey: project } } })), [project]);
  // Each environment is a form with its keys: a page of them at a time.
  const pages = useCursorPages();
  const environments = useAsync(
    () =>
      unwrap(
        api.GET('/projects/{projectKey}/environments', {
          params: { path: { projectKey: project }, query: { per_page: 25, cursor: pages.cursor } },
        }),
      ),
    [project, pages.cursor],
  );
  const shown = details.data?.data;
  const protectedShown = (environments.data?.data ?? []).filter((e) => e.confirmation_required).map((e) => e.name);
  return (
    <section>
      <h1>
        {shown ? shown.name : 'Project'} <code>{project}</code>
      </h1>
      <nav aria-label={`Project ${project}`} className="inline">
        <Link to={`/projects/${project}/flags`}>Flags of {project}</Link> · <Link to={`/projects/${project}/segments`}>Segments</Link> ·{' '}
        <Link to={`/projects/${project}/insights`}>Insights</Link> · <Link to={`/projects/${project}/webhooks`}>Webhooks</Link>
      </nav>
      <ErrorMessage problem={details.problem ?? environments.problem} />
      {shown ? <ProjectDetails key={shown.ulid} project={shown} onSaved={details.reload} /> : null}
      {environments.data?.data.map((environment) => (
        <EnvironmentEditor key={environment.ulid} project={project} environment={environment} onChanged={environments.reload} />
      ))}
      <Pager pages={pages} nextCursor={environments.data?.meta.next_cursor} loading={environments.loading} label="Pages of environments" />
      <NewEnvironment project={project} onCreated={environments.reload} />
      <section aria-labelledby="delete-project">
        <h2 id="delete-project">Delete the project</h2>
        <p>
          Deletes the project with its environments, keys, flags and segments. Audit entries are kept. This cannot be undone.
          {protectedShown.length > 0
            ? ` ${protectedShown.join(', ')} ${protectedShown.length === 1 ? 'requires' : 'require'} typed confirmation: only here, by typing the project's key, can the project be deleted.`
            : null}
        </p>
        <DeleteAfterTyping
          expected={project}
          what="delete the project and everything in it"
          remove={async (typed) => {
            // The typed key confirms the deletion where an environment requires typed confirmation; it is
            // always sent, since the environments shown are one page and the server reads the stored settings.
            await unwrap(
              api.DELETE('/projects/{projectKey}', { params: { path: { projectKey: project }, query: { confirmation: typed } } }),
            );
            navigate('/projects');
          }}
        >
          Delete project
        </DeleteAfterTyping>
      </section>
    </section>
  );
}
