import { useState, type ReactNode } from 'react';
import { allPages } from '../../api/all-pages';
import { api, unwrap, type Schemas } from '../../api/client';
import { Link } from '../../app/router';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { Field } from '../../ui/Field';
import { useAsync } from '../../ui/useAsync';
import { When } from '../../ui/When';
import '../../ui/admin.css';

/** A report's rows as a table, or `empty` when there are none; nothing until they are loaded. */
function ReportTable<Row>({
  label,
  columns,
  rows,
  row,
  empty,
}: {
  label: string;
  columns: string[];
  rows: Row[] | undefined;
  row: (row: Row) => ReactNode;
  empty: ReactNode;
}) {
  if (!rows) return null;
  if (rows.length === 0) return <p className="empty">{empty}</p>;
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{rows.map(row)}</tbody>
    </table>
  );
}

function EnvironmentInsights({ project, environment, days }: { project: string; environment: Schemas['Environment']; days: number }) {
  const path = { projectKey: project, environmentKey: environment.key };
  const stale = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/stale-flags', { params: { path, query: { days } } })),
    [project, environment.key, days],
  );
  const reports = useAsync(
    () => unwrap(api.GET('/projects/{projectKey}/environments/{environmentKey}/default-value-reports', { params: { path } })),
    [project, environment.key],
  );
  const flagLink = (key: string) => <Link to={`/projects/${project}/flags/${encodeURIComponent(key)}`}>{key}</Link>;
  return (
    <article className="environment" style={{ borderColor: environment.color }} aria-labelledby={`ins-${environment.ulid}`}>
      <h2 id={`ins-${environment.ulid}`}>{environment.name}</h2>
      <ErrorMessage problem={stale.problem ?? reports.problem} />
      <h3>Stale flags: not used here for {days} days, not permanent</h3>
      <ReportTable
        label={`Stale flags in ${environment.key}`}
        columns={['Flag', 'Name', 'Last used', 'Last changed', 'Created']}
        rows={stale.data?.data}
        row={(flag) => (
          <tr key={flag.key}>
            <td>{flagLink(flag.key)}</td>
            <td>{flag.name}</td>
            <td>
              <When iso={flag.last_used_at} none="never" />
            </td>
            <td>
              <When iso={flag.last_updated_at} none="never" />
            </td>
            <td>
              <When iso={flag.created_at} none="never" />
            </td>
          </tr>
        )}
        empty={`None: every flag was used within ${days} days, is newer, or is permanent.`}
      />
      <h3>Requested without a declared default</h3>
      <p>The application has nothing to fall back on if these flags become unavailable.</p>
      <ReportTable
        label={`Flags without a default in ${environment.key}`}
        columns={['Flag', 'Requests', 'Last seen']}
        rows={reports.data?.data.missing_defaults}
        row={(r) => (
          <tr key={r.flag_key}>
            <td>{flagLink(r.flag_key)}</td>
            <td>{r.count}</td>
            <td>
              <When iso={r.last_seen_at} none="never" />
            </td>
          </tr>
        )}
        empty="None reported."
      />
      <h3>Defaults declared for flags that do not exist</h3>
      <ReportTable
        label={`Unknown flags in ${environment.key}`}
        columns={['Flag key', 'Declared type', 'Requests', 'Last seen']}
        rows={reports.data?.data.unknown_flags}
        row={(r) => (
          <tr key={r.flag_key}>
            <td>
              <code>{r.flag_key}</code>
            </td>
            <td>{r.declared_type}</td>
            <td>{r.count}</td>
            <td>
              <When iso={r.last_seen_at} none="never" />
            </td>
          </tr>
        )}
        empty="None reported."
      />
    </article>
  );
}

/** Stale flags and default-value reports per environment (each flag page shows its own last use). */
export function InsightsScreen({ project }: { project: string }) {
  const [days, setDays] = useState(30);
  const environments = useAsync(
    () =>
      allPages((cursor) =>
        unwrap(
          api.GET('/projects/{projectKey}/environments', { params: { path: { projectKey: project }, query: { per_page: 100, cursor } } }),
        ),
      ),
    [project],
  );
  return (
    <section>
      <h1>Insights of {project}</h1>
      <Field
        label="Stale after days"
        name="days"
        type="number"
        min={1}
        max={3650}
        value={days}
        onChange={(e) => setDays(Math.min(3650, Math.max(1, Number(e.target.value) || 1)))}
      />
      <ErrorMessage problem={environments.problem} />
      {environments.data?.data.map((environment) => (
        <EnvironmentInsights key={environment.ulid} project={project} environment={environment} days={days} />
      ))}
    </section>
  );
}
