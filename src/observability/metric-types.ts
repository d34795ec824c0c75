import type { Metric } from 'prom-client';

/**
 * Metric kinds cheap enough for the request path. prom-client's own instruments hash their label
 * object on every observation; these hand out one series object per label set, which callers
 * keep, so an observation is a few number additions. They plug into a prom-client Registry
 * (name, help, type, get, reset), which writes the exposition text at scrape time.
 */

type Labels = Record<string, string>;

interface ExportedValue {
  value: number;
  labels: Labels;
  metricName?: string;
  sharedLabels?: Labels;
}

interface Exported {
  name: string;
  help: string;
  type: string;
  aggregator: 'sum';
  values: ExportedValue[];
}

abstract class ExportedMetric {
  abstract readonly type: 'counter' | 'gauge' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  protected abstract values(): ExportedValue[];

  async get(): Promise<Exported> {
    return { name: this.name, help: this.help, type: this.type, aggregator: 'sum', values: this.values() };
  }

  reset(): void {}

  /** The shape prom-client's Registry.registerMetric takes. */
  asMetric(): Metric<string> {
    return this as unknown as Metric<string>;
  }
}

function labelsOf(names: readonly string[], values: readonly string[]): Labels {
  const labels: Labels = {};
  names.forEach((name, i) => {
    labels[name] = values[i] ?? '';
  });
  return labels;
}

/** A metric with one series object per label set, made when the set is first asked for. */
abstract class SeriesMetric<Series> extends ExportedMetric {
  protected readonly byKey = new Map<string, Series>();

  constructor(
    name: string,
    help: string,
    private readonly labelNames: readonly string[],
  ) {
    super(name, help);
  }

  protected abstract newSeries(labels: Labels): Series;

  /** The series of these label values (in labelNames order); keep it rather than asking per observation. */
  series(...labelValues: string[]): Series {
    const key = labelValues.join('\u0000');
    let series = this.byKey.get(key);
    if (!series) {
      series = this.newSeries(labelsOf(this.labelNames, labelValues));
      this.byKey.set(key, series);
    }
    return series;
  }
}

/** One label set's histogram: bucket counts (not cumulative), sum and count. */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]! += 1;
        break;
      }
    }
    this.sum += value;
    this.count += 1;
  }
}

export class Histogram extends SeriesMetric<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  protected newSeries(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }

  protected values(): ExportedValue[] {
    const out: ExportedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const series of this.byKey.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += series.counts[i]!;
        out.push({ metricName: bucket, labels: { le: String(bound) }, sharedLabels: series.labels, value: cumulative });
      });
      out.push({ metricName: bucket, labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count });
      out.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels: series.labels, value: series.sum });
      out.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels: series.labels, value: series.count });
    }
    return out;
  }
}

export class CounterSeries {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(by = 1): void {
    this.value += by;
  }
}

export class Counter extends SeriesMetric<CounterSeries> {
  readonly type = 'counter';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    /** Label values whose series are shown from the start, at 0. */
    initial: readonly (readonly string[])[] = [],
  ) {
    super(name, help, labelNames);
    for (const values of initial) this.series(...values);
  }

  protected newSeries(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }

  protected values(): ExportedValue[] {
    return [...this.byKey.values()].map((s) => ({ labels: s.labels, value: s.value }));
  }
}

/** A counter or gauge whose values are read from their source at scrape time. */
export class Collected extends ExportedMetric {
  constructor(
    readonly type: 'counter' | 'gauge',
    name: string,
    help: string,
    private readonly read: () => Array<{ labels?: Labels; value: number }>,
  ) {
    super(name, help);
  }

  protected values(): ExportedValue[] {
    return this.read().map((v) => ({ labels: v.labels ?? {}, value: v.value }));
  }
}

/**
 * A gauge whose values are read at scrape time by a query (the webhook backlog): the scrape
 * waits for it; a failed read shows no series rather than failing the scrape.
 */
export class QueriedGauge extends ExportedMetric {
  readonly type = 'gauge';

  constructor(
    name: string,
    help: string,
    private readonly read: () => Promise<Array<{ labels?: Labels; value: number }>>,
  ) {
    super(name, help);
  }

  protected values(): ExportedValue[] {
    return [];
  }

  override async get(): Promise<Exported> {
    const samples = await this.read().catch(() => []);
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: 'sum',
      values: samples.map((v) => ({ labels: v.labels ?? {}, value: v.value })),
    };
  }
}
