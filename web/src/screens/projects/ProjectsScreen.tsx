import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { Link } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { Pager, useCursorPages } from '../../ui/Pager';
import { useAction, useAsync } from '../../ui/useAsync';

/** The projects the account may see, paged by the server. */
export function ProjectsScreen() {
  const pages = useCursorPages();
  const projects = useAsync(
    () => unwrap(api.GET('/projects', { params: { query: { per_page: 50, cursor: pages.cursor } } })),
    [pages.cursor],
  );
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run(async () => {
      await unwrap(api.POST('/projects', { body: { key, name, description } }));
      setKey('');
      setName('');
      setDescription('');
      projects.reload();
    });
  };
  return (
    <section>
      <h1>Projects</h1>
      <ErrorMessage problem={projects.problem} />
      <table>
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col">Key</th>
            <th scope="col">Flags</th>
          </tr>
        </thead>
        <tbody>
          {projects.data?.data.map((project) => (
            <tr key={project.ulid}>
              <td>
                <Link to={`/projects/${project.key}`}>{project.name}</Link>
              </td>
              <td>
                <code>{project.key}</code>
              </td>
              <td>
                <Link to={`/projects/${project.key}/flags`} aria-label={`Flags of ${project.name}`}>
                  Flags
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {projects.data?.data.length === 0 ? (
        <p className="empty">{pages.number === 1 ? 'No projects yet: create the first one below.' : 'No projects on this page.'}</p>
      ) : null}
      <Pager pages={pages} nextCursor={projects.data?.meta.next_cursor} loading={projects.loading} label="Pages of projects" />
      <h2>New project</h2>
      <form onSubmit={submit} className="inline">
        <Field label="Key" name="key" required value={key} onChange={(e) => setKey(e.target.value)} problem={create.problem} />
        <Field label="Name" name="name" required value={name} onChange={(e) => setName(e.target.value)} problem={create.problem} />
        <Field
          label="Description"
          name="description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          problem={create.problem}
        />
        <button type="submit" disabled={create.busy}>
          Create project
        </button>
      </form>
      <ErrorMessage problem={create.problem} />
    </section>
  );
}
