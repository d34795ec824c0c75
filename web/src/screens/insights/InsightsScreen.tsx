import { useState } from 'react';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAsync } from '../../ui/useAsync';

function EnvironmentInsights({ project, environment, days }: { project: string; environment: Schemas['Environment']; days: number }) {
  const path = { projectKey: project, environmentKey: environment.key };
  const stale = useAsync(() => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/stale-flags', { params: { path, query: { days } } })), [project, environment.key, days]);
  const reports = useAsync(() => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/default-value-reports', { params: { path } })), [project, environment.key]);
  return (
    <article className="environment" style={{ borderColor: environment.color }}>
      <h2>{environment.name}</h2>
      <ErrorMessage problem={stale.problem ?? reports.problem} />
      <h3>Stale flags (not used for {days} days, not permanent)</h3>
      <ul>
        {stale.data?.data.map((flag) => (
          <li key={flag.key}>
            <code>{flag.key}</code> {flag.name}: last used {flag.last_used_at ?? 'never'}
          </li>
        ))}
      </ul>
      {stale.data?.data.length === 0 ? <p>None.</p> : null}
      <h3>Requested without a declared default</h3>
      <ul>
        {reports.data?.data.missing_defaults.map((r) => (
          <li key={r.flag_key}>
            <code>{r.flag_key}</code>: {r.count} requests, last {r.last_seen_at}
          </li>
        ))}
      </ul>
      <h3>Defaults declared for flags that do not exist</h3>
      <ul>
        {reports.data?.data.unknown_flags.map((r) => (
          <li key={r.flag_key}>
            <code>{r.flag_key}</code> ({r.declared_type}): {r.count} requests, last {r.last_seen_at}
          </li>
        ))}
      </ul>
    </article>
  );
}

/** Stale flags and default-value reports per environment (each flag page shows its own last use). */
export function InsightsScreen({ project }: { project: string }) {
  const [days, setDays] = useState(30);
  const environments = useAsync(() => unwrap(api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project }, query: { per_page: 100 } } })), [project]);
  return (
    <section>
      <h1>Insights of {project}</h1>
      <Field label="Stale after days" name="days" type="number" min={1} value={days} onChange={(e) => setDays(Math.max(1, Number(e.target.value) || 1))} />
      <ErrorMessage problem={environments.problem} />
      {environments.data?.data.map((environment) => (
        <EnvironmentInsights key={environment.ulid} project={project} environment={environment} days={days} />
      ))}
    </section>
  );
}
