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
  recordPoolGauges(knex, metrics);
}

/** The part of Knex's connection pool (tarn) the gauges read. */
interface PoolCounts {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/**
 * The connection pool at scrape time: connections lent to a query or transaction (`in_use`),
 * open and free (`idle`), and requests waiting for one (vexil_db_pool_waiting), which grows
 * before the acquire timeout turns them into 503s.
 */
function recordPoolGauges(knex: Knex, metrics: Metrics): void {
  // The pool is made with the first query, after this runs: look it up at scrape time.
  const pool = () => (knex.client as { pool?: Partial<PoolCounts> }).pool;
  const counted = (read: (p: PoolCounts) => number) => () => {
    const current = pool();
    return typeof current?.numUsed === 'function' ? read(current as PoolCounts) : undefined;
  };
  const inUse = counted((p) => p.numUsed());
  const idle = counted((p) => p.numFree());
  const waiting = counted((p) => p.numPendingAcquires());
  metrics.collect(
    'gauge',
    'vexil_db_pool_connections',
    'Database connections of this instance, by state (in_use: lent to a query or transaction; idle: open and free).',
    () => {
      const [used, free] = [inUse(), idle()];
      return used === undefined || free === undefined
        ? []
        : [
            { labels: { state: 'in_use' }, value: used },
            { labels: { state: 'idle' }, value: free },
          ];
    },
  );
  metrics.collect('gauge', 'vexil_db_pool_waiting', 'Requests waiting for a database connection of this instance.', () => {
    const value = waiting();
    return value === undefined ? [] : [{ value }];
  });
}
