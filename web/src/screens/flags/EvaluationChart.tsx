import { useState } from 'react';
import type { Schemas } from '../../api/client';
import type { PanelContext } from './panel-context';
import { chartColumns, niceTicks, type ChartRange } from './chart-columns';
import { valueColour } from './value-colours';

const WIDTH = 720;
const HEIGHT = 180;
/** Room for the y-axis labels on the left and the x-axis labels below. */
const LEFT = 44;
const BOTTOM = 22;
const TOP = 8;

type Bucket = Schemas['FlagEvaluationHour'];

/**
 * Evaluations by served value in one environment: the last 24 hours per hour, or the last 7 days
 * per day, as stacked bars with axes, the numbers of the bar under the pointer, a legend in the
 * bars' colours and the same numbers as a table. The counts come with the panel's overview.
 */
export function EvaluationChart({ context, data }: { context: PanelContext; data?: Schemas['FlagEvaluationHours'] }) {
  const name = context.environment.name;
  return (
    <section className="evaluation-chart" aria-labelledby={`evaluations-${context.environment.key}`}>
      <h3 id={`evaluations-${context.environment.key}`}>Evaluations in {name}</h3>
      {data ? <ChartBody buckets={data.buckets} total24h={data.total_24h} environment={name} /> : null}
    </section>
  );
}

function ChartBody({ buckets, total24h, environment }: { buckets: Bucket[]; total24h: number; environment: string }) {
  const [range, setRange] = useState<ChartRange>('24h');
  const [hovered, setHovered] = useState<number>();
  const week = chartColumns(buckets, '7d', Date.now());
  const columns = range === '7d' ? week : chartColumns(buckets, '24h', Date.now());
  // Values by 7-day total, largest first: the largest get the first colours and sit at the bottom.
  const totals = new Map<string, number>();
  for (const column of week) for (const [value, count] of column.counts) totals.set(value, (totals.get(value) ?? 0) + count);
  const values = [...totals.keys()].sort((a, b) => totals.get(b)! - totals.get(a)! || (a < b ? -1 : 1));
  const colour = (value: string) => valueColour(values.indexOf(value));
  const weekTotal = [...totals.values()].reduce((a, b) => a + b, 0);
  const summary = `${weekTotal} evaluations in ${environment} in the last 7 days, ${total24h} in the last 24 hours${
    values.length > 0 ? `: ${values.map((v) => `${v} ${totals.get(v)}`).join(', ')}` : ''
  }.`;
  const ticks = niceTicks(Math.max(1, ...columns.map((c) => c.total)));
  const top = ticks[ticks.length - 1]!;
  const plot = WIDTH - LEFT;
  const slot = plot / columns.length;
  const y = (count: number) => TOP + HEIGHT - (count / top) * HEIGHT;
  const shown = hovered === undefined ? undefined : columns[hovered];
  return (
    <>
      <p data-testid="evaluations-24h">
        {total24h} evaluations in the last 24 hours · {weekTotal} in the last 7 days
      </p>
      {weekTotal === 0 ? (
        <p>No evaluations in the last 7 days.</p>
      ) : (
        <>
          <fieldset className="chart-range">
            <legend className="visually-hidden">Period of the chart</legend>
            {(
              [
                ['24h', 'Last 24 hours, per hour'],
                ['7d', 'Last 7 days, per day'],
              ] as const
            ).map(([key, label]) => (
              <label key={key}>
                <input
                  type="radio"
                  name={`range-${environment}`}
                  checked={range === key}
                  onChange={() => (setRange(key), setHovered(undefined))}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          <p className="chart-readout" data-testid="chart-readout">
            {shown
              ? `${shown.label}: ${shown.total} (${values
                  .filter((v) => shown.counts.has(v))
                  .map((v) => `${v} ${shown.counts.get(v)}`)
                  .join(', ')})`
              : 'Point at a bar for its numbers (times in UTC).'}
          </p>
          <svg
            role="img"
            aria-label={summary}
            viewBox={`0 0 ${WIDTH} ${TOP + HEIGHT + BOTTOM}`}
            className="evaluation-bars"
            onMouseLeave={() => setHovered(undefined)}
          >
            <g className="y-axis">
              {ticks.map((tick) => (
                <g key={tick}>
                  <line x1={LEFT} x2={WIDTH} y1={y(tick)} y2={y(tick)} className="grid-line" />
                  <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end" className="axis-label">
                    {tick}
                  </text>
                </g>
              ))}
            </g>
            <g className="x-axis">
              {columns.map((column, i) =>
                column.axisLabel ? (
                  <text key={column.start} x={LEFT + i * slot + slot / 2} y={TOP + HEIGHT + 16} textAnchor="middle" className="axis-label">
                    {column.axisLabel}
                  </text>
                ) : null,
              )}
            </g>
            {columns.map((column, i) => {
              let below = 0;
              return (
                // biome-ignore lint/a11y/noStaticElementInteractions: the pointer's readout repeats the table, which the keyboard reaches
                <g key={column.start} className={hovered === i ? 'column hovered' : 'column'} onMouseEnter={() => setHovered(i)}>
                  <rect x={LEFT + i * slot} y={TOP} width={slot} height={HEIGHT} className="hit-area" />
                  {values
                    .filter((v) => column.counts.has(v))
                    .map((value) => {
                      const count = column.counts.get(value)!;
                      below += count;
                      return (
                        <rect
                          key={value}
                          className="bar"
                          x={LEFT + i * slot + slot * 0.15}
                          y={y(below)}
                          width={slot * 0.7}
                          height={(count / top) * HEIGHT}
                          fill={colour(value)}
                          data-hour={range === '24h' ? column.start : undefined}
                          data-day={range === '7d' ? column.start.slice(0, 10) : undefined}
                          data-value={value}
                          data-count={count}
                        >
                          <title>{`${column.label}: ${value} ${count}`}</title>
                        </rect>
                      );
                    })}
                </g>
              );
            })}
            <line x1={LEFT} x2={WIDTH} y1={TOP + HEIGHT} y2={TOP + HEIGHT} className="axis-line" />
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
                {buckets
                  .filter((b) => week.some((c) => c.hours.includes(b.hour)))
                  .map((b) => (
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
