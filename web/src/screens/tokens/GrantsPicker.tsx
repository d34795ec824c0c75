import { useId, useState } from 'react';
import { allPages } from '../../api/all-pages';
import { api, fieldMessages, unwrap, type ApiProblem } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAsync } from '../../ui/useAsync';

export interface Grants {
  projects: string[];
  environments: Array<{ project: string; environment: string }>;
}

export const noGrants: Grants = { projects: [], environments: [] };

/** How a token's grants read: every project, or each granted project and environment. */
export function grantsText(grants: Grants): string {
  if (grants.projects.length === 0 && grants.environments.length === 0) return 'every project';
  return [...grants.projects.map((p) => `${p} (whole project)`), ...grants.environments.map((e) => `${e.project} / ${e.environment}`)].join(
    ', ',
  );
}

const wholeProject = '';

/** Picks grants one at a time: a project, then the whole project or one of its environments. */
export function GrantsPicker({ grants, onChange, problem }: { grants: Grants; onChange: (grants: Grants) => void; problem?: ApiProblem }) {
  const id = useId();
  const projects = useAsync(() => allPages((cursor) => unwrap(api.GET('/projects', { params: { query: { per_page: 100, cursor } } }))), []);
  const [project, setProject] = useState('');
  const [environment, setEnvironment] = useState(wholeProject);
  const environments = useAsync(
    () =>
      project
        ? allPages((cursor) =>
            unwrap(
              api.GET('/projects/{projectKey}/environments', {
                params: { path: { projectKey: project }, query: { per_page: 100, cursor } },
              }),
            ),
          )
        : Promise.resolve(undefined),
    [project],
  );
  const add = () => {
    if (environment === wholeProject) {
      if (!grants.projects.includes(project)) onChange({ ...grants, projects: [...grants.projects, project] });
    } else if (!grants.environments.some((g) => g.project === project && g.environment === environment)) {
      onChange({ ...grants, environments: [...grants.environments, { project, environment }] });
    }
  };
  const messages = fieldMessages(problem, 'grants');
  return (
    <fieldset>
      <legend>Grants (none: every project)</legend>
      <ul aria-label="Chosen grants">
        {grants.projects.map((p) => (
          <li key={`p:${p}`}>
            {p} (whole project){' '}
            <button type="button" onClick={() => onChange({ ...grants, projects: grants.projects.filter((x) => x !== p) })}>
              Remove grant {p}
            </button>
          </li>
        ))}
        {grants.environments.map((g) => (
          <li key={`e:${g.project}/${g.environment}`}>
            {g.project} / {g.environment}{' '}
            <button type="button" onClick={() => onChange({ ...grants, environments: grants.environments.filter((x) => x !== g) })}>
              Remove grant {g.project} / {g.environment}
            </button>
          </li>
        ))}
      </ul>
      {grants.projects.length + grants.environments.length === 0 ? <p>No grants: the token reaches every project.</p> : null}
      <div className="inline">
        <div className="field">
          <label htmlFor={`${id}-project`}>Grant project</label>
          <select id={`${id}-project`} value={project} onChange={(e) => (setProject(e.target.value), setEnvironment(wholeProject))}>
            <option value="">choose a project</option>
            {projects.data?.data.map((p) => (
              <option key={p.key} value={p.key}>
                {p.key}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-environment`}>Grant environment</label>
          <select id={`${id}-environment`} value={environment} disabled={!project} onChange={(e) => setEnvironment(e.target.value)}>
            <option value={wholeProject}>the whole project</option>
            {environments.data?.data.map((e) => (
              <option key={e.key} value={e.key}>
                {e.key}
              </option>
            ))}
          </select>
        </div>
        <button type="button" disabled={!project} onClick={add}>
          Add grant
        </button>
      </div>
      <ErrorMessage problem={projects.problem ?? environments.problem} />
      {messages.length > 0 ? (
        <div className="field-error" role="alert">
          {messages.join(' ')}
        </div>
      ) : null}
    </fieldset>
  );
}
