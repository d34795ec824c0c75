import { api, unwrap } from '../../api/client';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { useAsync } from '../../ui/useAsync';
import { targetsPath, type PanelContext } from './EnvironmentPanel';

const exposuresPath = '/projects/{projectKey}/flags/{flagKey}/environments/{environmentKey}/exposures' as const;

/** How many distinct contexts each split value reached per day (the last 7 days), beside the split. */
export function SplitExposures({ context }: { context: PanelContext }) {
  const exposures = useAsync(
    () => unwrap(api.GET(exposuresPath, { params: { path: targetsPath(context), query: { days: 7 } } })),
    [context.project, context.flag, context.environment.key],
  );
  const rows = exposures.data?.data;
  const caption = `Contexts each split value reached in ${context.environment.name}, per day`;
  return (
    <div className="split-exposures">
      <ErrorMessage problem={exposures.problem} />
      {rows && rows.length === 0 ? <p>No context has received a split value in the last 7 days.</p> : null}
      {rows && rows.length > 0 ? (
        <table aria-label={caption}>
          <caption>{caption} (approximate distinct counts)</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Value</th>
              <th scope="col">Contexts</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.day}/${r.variant}`}>
                <td>{r.day}</td>
                <td>
                  <code>{r.variant}</code>
                </td>
                <td>{r.contexts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
