import { collectDefaultMetrics, Registry } from 'prom-client';
import { invalidAttributeCounts, type ResolvedBy } from '../engine/index.js';
import { Collected, Counter, Histogram, QueriedGauge } from './metric-types.js';

/** The `api` label of request metrics: which surface a request came in on. */
export type ApiName = 'public' | 'ofrep' | 'management' | 'operations' | 'console';

/** Evaluations served, by reason (`resolved_by`): plain integers, read at scrape time. */
export type EvaluationCounts = Record<ResolvedBy, number>;

export function newEvaluationCounts(): EvaluationCounts {
  return { target: 0, rule: 0, rollout: 0, default: 0, prerequisite: 0 };
}

/** What a buffer written in batches reports (public audit entries, usage telemetry). */
export interface BufferStats {
  /** Entries held now, not yet written. */
  depth(): number;
  /** Rows written since start. */
  written(): number;
  /** Entries refused since start because the buffer was full. */
  dropped(): number;
}

type Sample = { labels?: Record<string, string>; value: number };

// Evaluations take tens of microseconds; management writes and slow databases take seconds.
const requestBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const queryBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Every metric of one instance (README: Operating Vexil), in its own prom-client registry. Names
 * start with `vexil_` and carry their unit; label values come from fixed sets (API, operationId,
 * status class, reason, buffer, SQL verb) or from environments that exist, never from request
 * input. Instruments on the request path are plain numbers (metric-types.ts); everything a
 * component already counts is read from it when Prometheus scrapes.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requestDurations = new Histogram(
    'vexil_http_request_duration_seconds',
    'Time from a request reaching Vexil until its response is ready (for a stream: until it opens), by API, operationId (unmatched: no documented operation) and status class.',
    ['api', 'operation', 'status_class'],
    requestBuckets,
  );
  readonly evaluations: EvaluationCounts = newEvaluationCounts();
  readonly rateLimitRejections = new Counter(
    'vexil_rate_limit_rejections_total',
    'Requests refused with 429 by the rate limits, by API.',
    ['api'],
    [['public'], ['management']],
  );
  readonly dbQueryDurations = new Histogram(
    'vexil_db_query_duration_seconds',
    'Database statement durations (connection wait excluded), by SQL verb.',
    ['operation'],
    queryBuckets,
  );
  readonly dbQueryErrors = new Counter(
    'vexil_db_query_errors_total',
    'Database statements that failed, by SQL verb (connect: no connection could be opened).',
    ['operation'],
  );
  readonly schedulerRuns = new Counter(
    'vexil_scheduler_runs_total',
    'Scheduler runs (scheduled publishes and automatic rollout steps), by result.',
    ['result'],
    [['success'], ['failure']],
  );
  readonly schedulerChanges = new Counter(
    'vexil_scheduler_changes_total',
    'Changes the scheduler made or was refused: targets published, publishes refused, rollout steps advanced, rollouts completed.',
    ['change'],
    [['published'], ['refused'], ['advanced'], ['completed']],
  );
  readonly webhookAttempts = new Counter(
    'vexil_webhook_delivery_attempts_total',
    'Webhook delivery attempts by this instance, by result (retrying: failed, will be tried again; failed: given up).',
    ['result'],
    [['delivered'], ['retrying'], ['failed']],
  );
  private readonly buffers = new Map<string, BufferStats>();

  constructor(options: { processMetrics?: boolean } = {}) {
    for (const metric of [
      this.requestDurations,
      this.rateLimitRejections,
      this.dbQueryDurations,
      this.dbQueryErrors,
      this.schedulerRuns,
      this.schedulerChanges,
      this.webhookAttempts,
    ]) {
      this.registry.registerMetric(metric.asMetric());
    }
    const counts = this.evaluations;
    this.collect(
      'counter',
      'vexil_evaluations_total',
      'Flag evaluations served by the public API, OFREP and client payloads, by reason (resolved_by).',
      () => (Object.keys(counts) as ResolvedBy[]).map((reason) => ({ labels: { reason }, value: counts[reason] })),
    );
    this.collect(
      'counter',
      'vexil_evaluation_unreadable_attribute_values_total',
      'Context attribute values a semver comparer (kind version) or before/after (kind date) could not read, so the criterion did not match.',
      () => {
        const unreadable = invalidAttributeCounts();
        return [
          { labels: { kind: 'version' }, value: unreadable.version },
          { labels: { kind: 'date' }, value: unreadable.date },
        ];
      },
    );
    const perBuffer = (read: (stats: BufferStats) => number) => () =>
      [...this.buffers].map(([buffer, stats]) => ({ labels: { buffer }, value: read(stats) }));
    this.collect(
      'gauge',
      'vexil_buffer_entries',
      'Entries held in memory, waiting to be written, by buffer.',
      perBuffer((s) => s.depth()),
    );
    this.collect(
      'counter',
      'vexil_buffer_rows_written_total',
      'Rows written to the database from the buffer, by buffer.',
      perBuffer((s) => s.written()),
    );
    this.collect(
      'counter',
      'vexil_buffer_rows_dropped_total',
      'Entries refused because the buffer was full (rows never written), by buffer.',
      perBuffer((s) => s.dropped()),
    );
    // Process and Node metrics (CPU, memory, handles, garbage collection, event-loop lag).
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'vexil_' });
  }

  /** A counter or gauge read from its source at scrape time (open streams, snapshot revisions). */
  collect(type: 'counter' | 'gauge', name: string, help: string, read: () => Sample[]): void {
    this.registry.registerMetric(new Collected(type, name, help, read).asMetric());
  }

  /** A gauge read by a query at scrape time (QueriedGauge: a failed read shows no series). */
  collectQueried(name: string, help: string, read: () => Promise<Sample[]>): void {
    this.registry.registerMetric(new QueriedGauge(name, help, read).asMetric());
  }

  /** A buffer written in batches: its depth, rows written and entries dropped (label `buffer`). */
  addBuffer(name: string, stats: BufferStats): void {
    this.buffers.set(name, stats);
  }

  /** The exposition text (Prometheus 0.0.4) and its content type. */
  async exposition(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
