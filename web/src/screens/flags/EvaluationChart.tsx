import type { Schemas } from '../../api/client';
import type { PanelContext } from './panel-context';

/** The hours the chart shows: getFlagEnvironmentOverview's default `hours` (168, 7 days). */
const HOURS = 168;
const HOUR_MS = 3_600_000;
const BAR = 4;
const HEIGHT = 120;
const WIDTH = HOURS * BAR;
/** Distinct in hue and lightness, on light and dark backgrounds; values beyond these share the last. */
const PALETTE = ['#2563eb', '#d97706', '#059669', '#db2777', '#7c3aed', '#0891b2', '#65a30d', '#6b7280'];

type Bucket = Schemas['FlagEvaluationHour'];

/** The hours charted, oldest first: the current UTC hour and the 167 before (as ISO times). */
function chartedHours(now: number): string[] {
  const current = Math.floor(now / HOUR_MS) * HOUR_MS;
  return Array.from({ length: HOURS }, (_, i) => new Date(current - (HOURS - 1 - i) * HOUR_MS).toISOString());
}

/**
 * Evaluations per hour by served value in one environment, the last 7 days: stacked SVG bars, a
 * legend and the same numbers as a table. The counts come with the panel's overview.
 */
export function EvaluationChart({ context, data }: { context: PanelContext; data?: Schemas['FlagEvaluationHours'] }) {
  const name = context.environment.name;
  return (
    <section className="evaluation-chart" aria-labelledby={`evaluations-${context.environment.key}`}>
      <h3 id={`evaluations-${context.environment.key}`}>Evaluations in {name}, last 7 days</h3>
      {data ? <ChartBody buckets={data.buckets} total24h={data.total_24h} environment={name} /> : null}
    </section>
  );
}

function ChartBody({ buckets, total24h, environment }: { buckets: Bucket[]; total24h: number; environment: string }) {
  const hours = chartedHours(Date.now());
  const index = new Map(hours.map((h, i) => [h, i]));
  const shown = buckets.filter((b) => index.has(b.hour));
  // Values by 7-day total, largest first: the largest get the first colours and sit at the bottom.
  const totals = new Map<string, number>();
  for (const b of shown) totals.set(b.value, (totals.get(b.value) ?? 0) + b.count);
  const values = [...totals.keys()].sort((a, b) => totals.get(b)! - totals.get(a)! || (a < b ? -1 : 1));
  const colour = (value: string) => PALETTE[Math.min(values.indexOf(value), PALETTE.length - 1)]!;
  const perHour = new Map<string, number>();
  for (const b of shown) perHour.set(b.hour, (perHour.get(b.hour) ?? 0) + b.count);
  const max = Math.max(1, ...perHour.values());
  const week = [...totals.values()].reduce((a, b) => a + b, 0);
  const summary = `${week} evaluations in ${environment} in the last 7 days, ${total24h} in the last 24 hours${
    values.length > 0 ? `: ${values.map((v) => `${v} ${totals.get(v)}`).join(', ')}` : ''
  }.`;
  const stacked = new Map<string, number>();
  return (
    <>
      <p data-testid="evaluations-24h">
        {total24h} evaluations in the last 24 hours · {week} in the last 7 days
      </p>
      {week === 0 ? (
        <p>No evaluations in the last 7 days.</p>
      ) : (
        <>
          <svg role="img" aria-label={summary} viewBox={`0 0 ${WIDTH} ${HEIGHT + 16}`} className="evaluation-bars">
            {/* Day boundaries (UTC midnight), labelled with the day. */}
            {hours.map((h, i) =>
              h.endsWith('T00:00:00.000Z') ? (
                <g key={`day-${h}`}>
                  <line x1={i * BAR} x2={i * BAR} y1={0} y2={HEIGHT} className="day-line" />
                  {/* A day that begins too near the right edge has no room for its label. */}
                  {i * BAR + 32 <= WIDTH ? (
                    <text x={i * BAR + 2} y={HEIGHT + 12} className="day-label">
                      {h.slice(5, 10)}
                    </text>
                  ) : null}
                </g>
              ) : null,
            )}
            {[...shown]
              .sort((a, b) => values.indexOf(a.value) - values.indexOf(b.value))
              .map((b) => {
                const below = stacked.get(b.hour) ?? 0;
                stacked.set(b.hour, below + b.count);
                const height = (b.count / max) * HEIGHT;
                const y = HEIGHT - ((below + b.count) / max) * HEIGHT;
                return (
                  <rect
                    key={`${b.hour}/${b.value}`}
                    x={index.get(b.hour)! * BAR}
                    y={y}
                    width={BAR - 0.5}
                    height={height}
                    fill={colour(b.value)}
                    data-hour={b.hour}
                    data-value={b.value}
                    data-count={b.count}
                  >
                    <title>{`${b.hour.slice(0, 13).replace('T', ' ')}:00 UTC: ${b.value} ${b.count}`}</title>
                  </rect>
                );
              })}
          </svg>
          <ul className="evaluation-legend" aria-label="Values served">
            {values.map((v) => (
              <li key={v} data-value={v}>
                <span className="swatch" style={{ background: colour(v) }} aria-hidden="true" /> <code>{v}</code> {totals.get(v)}
              </li>
            ))}
          </ul>
          <details>
            <summary>Evaluations per hour as a table</summary>
            <table>
              <caption>Evaluations in {environment} per hour (UTC) and value, the last 7 days</caption>
              <thead>
                <tr>
                  <th scope="col">Hour (UTC)</th>
                  <th scope="col">Value</th>
                  <th scope="col">Evaluations</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((b) => (
                  <tr key={`${b.hour}/${b.value}`}>
                    <td>{b.hour.slice(0, 13).replace('T', ' ')}:00</td>
                    <td>
                      <code>{b.value}</code>
                    </td>
                    <td>{b.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </>
  );
}
