import type { Schemas } from '../../api/client';
import type { PanelContext } from './panel-context';

/**
 * How many distinct contexts each split value reached per day (the last 7 days), beside the split;
 * `rows`: the panel's overview's exposures.
 */
export function SplitExposures({ context, rows }: { context: PanelContext; rows: Schemas['SplitExposure'][] }) {
  const caption = `Contexts each split value reached in ${context.environment.name}, per day`;
  return (
    <div className="split-exposures">
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
