import type { Schemas } from '../../api/client';

const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;

/** The chart's two periods: the last 24 hours per hour, the last 7 days per UTC day. */
export type ChartRange = '24h' | '7d';

/** One bar of the chart: the hours it adds up and the evaluations per value in them. */
export interface ChartColumn {
  /** ISO time of its first hour. */
  start: string;
  hours: string[];
  counts: Map<string, number>;
  total: number;
  /** What the pointer's readout names it by. */
  label: string;
  /** Its label on the x-axis; empty where labels would crowd. */
  axisLabel: string;
}

const hourText = (iso: string) => `${iso.slice(11, 13)}:00`;

/**
 * The buckets (per hour and value, as the API answers them) in the chart's columns: the current
 * UTC hour and the 23 before, or today (UTC) and the 6 days before, oldest first.
 */
export function chartColumns(buckets: Schemas['FlagEvaluationHour'][], range: ChartRange, now: number): ChartColumn[] {
  const current = Math.floor(now / HOUR_MS) * HOUR_MS;
  const hourAt = (offset: number) => new Date(current - offset * HOUR_MS).toISOString();
  const groups: string[][] =
    range === '24h'
      ? Array.from({ length: DAY_HOURS }, (_, i) => [hourAt(DAY_HOURS - 1 - i)])
      : Array.from({ length: 7 }, (_, day) => {
          const midnight = Math.floor(now / (DAY_HOURS * HOUR_MS)) * DAY_HOURS * HOUR_MS - (6 - day) * DAY_HOURS * HOUR_MS;
          return Array.from({ length: DAY_HOURS }, (_, h) => new Date(midnight + h * HOUR_MS).toISOString()).filter(
            (hour) => Date.parse(hour) <= current,
          );
        });
  const byHour = new Map<string, Schemas['FlagEvaluationHour'][]>();
  for (const bucket of buckets) byHour.set(bucket.hour, [...(byHour.get(bucket.hour) ?? []), bucket]);
  return groups.map((hours, i) => {
    const counts = new Map<string, number>();
    for (const hour of hours) for (const b of byHour.get(hour) ?? []) counts.set(b.value, (counts.get(b.value) ?? 0) + b.count);
    const start = hours[0]!;
    const next = new Date(Date.parse(start) + HOUR_MS).toISOString();
    return {
      start,
      hours,
      counts,
      total: [...counts.values()].reduce((a, b) => a + b, 0),
      label: range === '24h' ? `${start.slice(0, 10)} ${hourText(start)}–${hourText(next)} UTC` : `${start.slice(0, 10)} (UTC)`,
      axisLabel: range === '24h' ? (i % 3 === 0 ? hourText(start) : '') : start.slice(5, 10),
    };
  });
}

/** Round y-axis ticks from 0 to at least `max`: steps of 1, 2 or 5 times a power of ten, four or five of them. */
export function niceTicks(max: number): number[] {
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const ticks = [0];
  while (ticks[ticks.length - 1]! < max) ticks.push(ticks.length * step);
  return ticks;
}
