import type { Knex } from 'knex';
import type { CounterSeries, HistogramSeries } from './metric-types.js';
import type { Metrics } from './metrics.js';
import { observeQueries, sqlVerb } from './query-events.js';

type Verb = ReturnType<typeof sqlVerb>;
const verbs: readonly Verb[] = ['select', 'insert', 'update', 'delete', 'other'];

/** Statements running now (a statement the driver never reports back on is forgotten past this). */
const maxRunning = 10_000;

/**
 * Database statement durations and failures (vexil_db_query_*), from Knex's query events, and
 * connections the pool could not open (operation `connect`). The evaluation path runs no
 * statements, so none of this is on it.
 */
export function recordDatabaseMetrics(knex: Knex, metrics: Metrics): void {
  const durations = Object.fromEntries(verbs.map((v) => [v, metrics.dbQueryDurations.series(v)])) as Record<Verb, HistogramSeries>;
  const errors = Object.fromEntries(verbs.map((v) => [v, metrics.dbQueryErrors.series(v)])) as Record<Verb, CounterSeries>;
  const running = new Map<string, { at: number; verb: Verb }>();
  observeQueries(knex, {
    started(uid, sql) {
      if (running.size >= maxRunning) running.clear();
      running.set(uid, { at: performance.now(), verb: sqlVerb(sql) });
    },
    finished(uid, failed) {
      const query = running.get(uid);
      if (!query) return;
      running.delete(uid);
      durations[query.verb].observe((performance.now() - query.at) / 1000);
      if (failed) errors[query.verb].inc();
    },
  });
  const connectFailures = metrics.dbQueryErrors.series('connect');
  const pool = (knex.client as { pool?: { on(event: string, listener: () => void): void } }).pool;
  pool?.on('createFail', () => connectFailures.inc());
}
