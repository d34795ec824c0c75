import { api, unwrap } from '../../api/client';
import { allPages } from '../../api/all-pages';
import { Link } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAsync } from '../../ui/useAsync';
import { EnvironmentPanel } from './EnvironmentPanel';
import { FlagDetails } from './FlagDetails';
import { FlagValues } from './FlagValues';

/** A flag: its details, values, and for each environment what it serves, its drafts and history. */
export function FlagScreen({ project, flag }: { project: string; flag: string }) {
  const path = { projectKey: project, flagKey: flag };
  const details = useAsync(() => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}', { params: { path } })), [project, flag]);
  const values = useAsync(() => unwrap(api.GET('/projects/{projectKey}/flags/{flagKey}/values', { params: { path } })), [project, flag]);
  const environments = useAsync(
    () =>
      allPages((cursor) =>
        unwrap(
          api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project }, query: { per_page: 100, cursor } } }),
        ),
      ),
    [project],
  );
  // Segment keys offered in segment criteria (the first 100; more can be typed).
  const segments = useAsync(
    () =>
      allPages((cursor) =>
        unwrap(api.GET('/projects/{projectKey}/segments', { params: { path: { projectKey: project }, query: { per_page: 100, cursor } } })),
      ),
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
      {details.data ? (
        <FlagDetails key={details.data.data.updated_at} project={project} flag={details.data.data} onSaved={details.reload} />
      ) : null}
      {values.data ? <FlagValues project={project} flag={flag} values={values.data.data} onChange={values.reload} /> : null}
      {values.data && environments.data
        ? environments.data.data.map((environment) => (
            <EnvironmentPanel
              key={environment.ulid}
              project={project}
              flag={flag}
              environment={environment}
              values={values.data?.data ?? []}
              segments={segments.data?.data}
            />
          ))
        : null}
    </section>
  );
}
