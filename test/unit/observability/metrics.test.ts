import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { digestSecret } from '../../../src/auth/secrets.js';
import { Counter, Histogram } from '../../../src/observability/metric-types.js';
import { Metrics } from '../../../src/observability/metrics.js';
import { apiOf } from '../../../src/observability/request-metrics.js';
import { sqlVerb } from '../../../src/observability/query-events.js';
import { tracingSettings } from '../../../src/observability/tracing-settings.js';
import { TelemetryBuffer } from '../../../src/runtime/telemetry-buffer.js';
import { parseExposition, sampleValue } from '../../support/prometheus.js';

async function exposition(metrics: Metrics) {
  return parseExposition((await metrics.exposition()).text);
}

describe('metric kinds of the request path', () => {
  it('a histogram series counts each observation in the first bucket that holds it; the text is cumulative', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const histogram = new Histogram('vexil_test_seconds', 'test', ['kind'], [0.1, 1]);
    metrics.registry.registerMetric(histogram.asMetric());
    const series = histogram.series('a');
    expect(histogram.series('a')).toBe(series);
    for (const value of [0.05, 0.1, 0.5, 3]) series.observe(value);
    const text = await exposition(metrics);
    expect(sampleValue(text, 'vexil_test_seconds_bucket', { kind: 'a', le: '0.1' })).toBe(2);
    expect(sampleValue(text, 'vexil_test_seconds_bucket', { kind: 'a', le: '1' })).toBe(3);
    expect(sampleValue(text, 'vexil_test_seconds_bucket', { kind: 'a', le: '+Inf' })).toBe(4);
    expect(sampleValue(text, 'vexil_test_seconds_count', { kind: 'a' })).toBe(4);
    expect(sampleValue(text, 'vexil_test_seconds_sum', { kind: 'a' })).toBeCloseTo(3.65);
  });

  it('a counter shows its initial series at 0 and escapes label values', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const counter = new Counter('vexil_test_total', 'test', ['kind'], [['zero']]);
    metrics.registry.registerMetric(counter.asMetric());
    counter.series('odd "quoted"\\value').inc(2);
    const text = await exposition(metrics);
    expect(sampleValue(text, 'vexil_test_total', { kind: 'zero' })).toBe(0);
    expect(sampleValue(text, 'vexil_test_total', { kind: 'odd "quoted"\\value' })).toBe(2);
  });

  it('evaluations are plain counts read at scrape time', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.evaluations.rule += 3;
    metrics.evaluations.default += 1;
    const text = await exposition(metrics);
    expect(text.types.get('vexil_evaluations_total')).toBe('counter');
    expect(sampleValue(text, 'vexil_evaluations_total', { reason: 'rule' })).toBe(3);
    expect(sampleValue(text, 'vexil_evaluations_total', { reason: 'default' })).toBe(1);
    expect(sampleValue(text, 'vexil_evaluations_total', { reason: 'target' })).toBe(0);
  });

  it('buffers report depth, rows written and rows dropped under their own label', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const buffer = new TelemetryBuffer(1);
    const at = '2026-01-01T00:00:00.000Z';
    buffer.recordFlag('env_a', 'flg_a', 'evaluated', 1, at);
    buffer.recordFlag('env_a', 'flg_b', 'evaluated', 1, at);
    buffer.recordFlag('env_a', 'flg_c', 'evaluated', 1, at);
    buffer.drain(() => []);
    buffer.recordFlag('env_a', 'flg_a', 'evaluated', 1, at);
    metrics.addBuffer('telemetry', { depth: () => buffer.size, written: () => 7, dropped: () => buffer.droppedTotal });
    const text = await exposition(metrics);
    // The per-flush count resets on each drain; the total does not.
    expect(buffer.dropped).toBe(0);
    expect(sampleValue(text, 'vexil_buffer_rows_dropped_total', { buffer: 'telemetry' })).toBe(2);
    expect(sampleValue(text, 'vexil_buffer_entries', { buffer: 'telemetry' })).toBe(1);
    expect(sampleValue(text, 'vexil_buffer_rows_written_total', { buffer: 'telemetry' })).toBe(7);
  });
});

describe('labels come from fixed sets', () => {
  it.each([
    ['/v1/flags/x', 'public'],
    ['/v1/api-docs', 'public'],
    ['/ofrep/v1/evaluate/flags', 'ofrep'],
    ['/management/v1/projects', 'management'],
    ['/health', 'operations'],
    ['/ready', 'operations'],
    ['/metrics', 'operations'],
    ['/', 'console'],
    ['/assets/app.js', 'console'],
    ['/docs', 'console'],
  ])('%s is API %s', (path, api) => {
    expect(apiOf(path)).toBe(api);
  });

  it.each([
    ['select * from flags', 'select'],
    ['  SELECT 1', 'select'],
    ['insert into `audit_entries` (`ulid`) values (?)', 'insert'],
    ['update flags set name = ?', 'update'],
    ['delete from targets where ulid = ?', 'delete'],
    ['with recursive x as (select 1) select * from x', 'select'],
    ['BEGIN;', 'other'],
    ['create table x (a int)', 'other'],
  ])('%s is %s', (sql, verb) => {
    expect(sqlVerb(sql)).toBe(verb);
  });
});

describe('metrics and tracing settings', () => {
  it('keep only the digest of the metrics token, and never repeat it in a refusal', () => {
    const token = 'a-long-enough-scrape-token';
    expect(loadConfig({ VEXIL_METRICS_TOKEN: token }).metrics).toEqual({ tokenDigest: digestSecret(token), port: undefined });
    expect(loadConfig({}).metrics).toEqual({ tokenDigest: undefined, port: undefined });
    expect(() => loadConfig({ VEXIL_METRICS_TOKEN: 'short' })).toThrow(/VEXIL_METRICS_TOKEN must be 16 to 512 printable characters/);
    expect(() => loadConfig({ VEXIL_METRICS_TOKEN: 'has spaces in the token value' })).toThrow(/^(?!.*has spaces).*$/);
  });

  it('reads the metrics port, which must differ from PORT', () => {
    expect(loadConfig({ VEXIL_METRICS_PORT: '9464' }).metrics.port).toBe(9464);
    expect(() => loadConfig({ VEXIL_METRICS_PORT: '8080' })).toThrow(/VEXIL_METRICS_PORT must differ from PORT/);
    expect(() => loadConfig({ VEXIL_METRICS_PORT: '70000' })).toThrow(/VEXIL_METRICS_PORT must be an integer from 1 to 65535/);
  });

  it('turns tracing on only with an OTLP endpoint, and reads the standard OTEL settings then', () => {
    expect(tracingSettings({}).enabled).toBe(false);
    // Another program's settings do not stop Vexil while it does not trace.
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).enabled).toBe(false);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(false);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      exportDelayMs: 5000,
    });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      }),
    ).toMatchObject({ enabled: true, protocol: 'http/json', sampler: 'parentbased_traceidratio', samplerRatio: 0.1 });
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json/,
    );
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(
      /OTEL_TRACES_SAMPLER_ARG/,
    );
  });
});
