import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { digestSecret } from '../../src/auth/secrets.js';
import { metricsApp } from '../../src/observability/metrics-endpoint.js';
import { describeEachDatabase } from '../support/databases.js';
import { hasSample, parseExposition, sampleValue, type Exposition } from '../support/prometheus.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, contextHeader, sleep, waitFor, type EnvironmentFixture, type FlagFixture } from './public-fixtures.js';
import { fastWebhooks } from './webhook-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

const durationCount = 'vexil_http_request_duration_seconds_count';

async function scrape(app: TestApp, headers: Record<string, string> = {}): Promise<Exposition> {
  const res = await app.request('GET', '/metrics', { headers });
  expect(res.status).toBe(200);
  return parseExposition(res.body as string);
}

describeEachDatabase('metrics: GET /metrics', (db) => {
  let app: TestApp;
  let fx: Fixtures;
  let env: EnvironmentFixture;
  let flags: Record<string, FlagFixture>;
  const flagKey = 'metrics-secret-flag-key';
  const contextValue = 'context-value-never-a-label';

  beforeAll(async () => {
    app = await startTestApp(db);
    fx = new Fixtures(app);
    const project = await fx.project();
    env = await fx.environment(project, 'production');
    flags = {
      byTarget: await fx.flag(project, { key: flagKey, type: 'boolean' }),
      byRule: await fx.flag(project, { key: 'by-rule', type: 'boolean' }),
      byRollout: await fx.flag(project, { key: 'by-rollout', type: 'string', values: ['old', 'new'], defaultValue: 'old' }),
      byDefault: await fx.flag(project, { key: 'by-default', type: 'boolean' }),
    };
    await fx.publish(env, flags.byTarget!, { value: 'true' });
    await fx.publish(env, flags.byRule!, {
      value: 'false',
      rules: [{ value: 'true', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: [contextValue] }] }],
    });
    await fx.publish(env, flags.byRollout!, { value: 'old' });
    await fx.publish(env, flags.byRollout!, { value: 'new', rollout: { percentage: 100 } });
    await fx.settle(env);
  });
  afterAll(async () => {
    await app?.close();
  });

  const evaluate = (
    key: string,
    context: unknown = { type: 'user', identifier: 'user-1', attributes: [{ key: 'plan', values: [{ value: contextValue }] }] },
  ) => app.request('GET', `/v1/flags/${key}`, { apiKey: env.serverKey, headers: { 'x-vexil-context': contextHeader(context) } });

  it('answers the Prometheus text format; every name starts with vexil_, counters end in _total, units are in the names', async () => {
    const res = await app.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const metrics = parseExposition(res.body as string);
    expect(metrics.types.size).toBeGreaterThan(20);
    for (const [name, type] of metrics.types) {
      expect(name).toMatch(/^vexil_/);
      if (type === 'counter') expect(name).toMatch(/_total$/);
      if (type === 'histogram') expect(name).toMatch(/_seconds$|_bytes$/);
    }
    for (const sample of metrics.samples) expect(sample.name).toMatch(/^vexil_/);
    for (const [name, type] of [
      ['vexil_http_request_duration_seconds', 'histogram'],
      ['vexil_evaluations_total', 'counter'],
      ['vexil_snapshot_revision', 'gauge'],
      ['vexil_snapshot_age_seconds', 'gauge'],
      ['vexil_buffer_entries', 'gauge'],
      ['vexil_buffer_rows_written_total', 'counter'],
      ['vexil_buffer_rows_dropped_total', 'counter'],
      ['vexil_stream_connections', 'gauge'],
      ['vexil_rate_limit_rejections_total', 'counter'],
      ['vexil_db_query_duration_seconds', 'histogram'],
      ['vexil_db_query_errors_total', 'counter'],
      ['vexil_scheduler_runs_total', 'counter'],
      ['vexil_webhook_delivery_attempts_total', 'counter'],
      ['vexil_nodejs_eventloop_lag_seconds', 'gauge'],
      ['vexil_process_cpu_seconds_total', 'counter'],
      ['vexil_process_resident_memory_bytes', 'gauge'],
    ]) {
      expect(metrics.types.get(name!), name).toBe(type);
    }
  });

  it('counts request durations by API, operationId and status class; unknown routes get one fixed label', async () => {
    const before = await scrape(app);
    await evaluate(flagKey);
    await evaluate(flagKey);
    await evaluate('no-such-flag-in-any-label');
    await app.request('GET', '/v1/no-such-route-in-any-label', { apiKey: env.serverKey });
    await app.request('POST', '/ofrep/v1/evaluate/flags', { apiKey: env.serverKey, body: { context: { targetingKey: 'user-1' } } });
    await app.mgmt('GET', '/projects');
    await app.request('GET', '/health');
    await app.request('GET', '/ready');
    const after = await scrape(app);
    const moved = (labels: Record<string, string>) =>
      sampleValue(after, durationCount, labels) - sampleValue(before, durationCount, labels);
    expect(moved({ api: 'public', operation: 'getEvaluatedFlag', status_class: '2xx' })).toBe(2);
    expect(moved({ api: 'public', operation: 'getEvaluatedFlag', status_class: '4xx' })).toBe(1);
    expect(moved({ api: 'public', operation: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(moved({ api: 'ofrep', operation: 'ofrepEvaluateFlags', status_class: '2xx' })).toBe(1);
    expect(moved({ api: 'management', operation: 'listProjects', status_class: '2xx' })).toBe(1);
    expect(moved({ api: 'operations', operation: 'getHealth', status_class: '2xx' })).toBe(1);
    expect(moved({ api: 'operations', operation: 'getReadiness', status_class: '2xx' })).toBe(1);
    // Buckets are cumulative and end with +Inf equal to the count.
    const series = { api: 'public', operation: 'getEvaluatedFlag', status_class: '2xx' };
    const buckets = after.samples.filter(
      (s) => s.name === 'vexil_http_request_duration_seconds_bucket' && Object.entries(series).every(([k, v]) => s.labels[k] === v),
    );
    expect(buckets.at(-1)!.labels.le).toBe('+Inf');
    expect(buckets.at(-1)!.value).toBe(sampleValue(after, durationCount, series));
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(sampleValue(after, 'vexil_http_request_duration_seconds_sum', series)).toBeGreaterThan(0);
  });

  it('counts evaluations by reason, and no label anywhere holds a flag key, a context value or a key', async () => {
    const before = await scrape(app);
    await evaluate(flagKey); // target
    await evaluate('by-rule'); // rule
    await evaluate('by-rollout'); // rollout
    await evaluate('by-default'); // default: nothing published
    await evaluate('by-rule', { type: 'user', identifier: 'user-2' }); // target: the rule does not match
    const after = await scrape(app);
    const moved = (reason: string) =>
      sampleValue(after, 'vexil_evaluations_total', { reason }) - sampleValue(before, 'vexil_evaluations_total', { reason });
    expect({ target: moved('target'), rule: moved('rule'), rollout: moved('rollout'), default: moved('default') }).toEqual({
      target: 2,
      rule: 1,
      rollout: 1,
      default: 1,
    });
    const labelValues = after.samples.flatMap((s) => Object.values(s.labels));
    for (const secret of [flagKey, 'by-rule', 'no-such', contextValue, 'user-1', env.serverKey, app.ownerToken]) {
      expect(
        labelValues.filter((v) => v.includes(secret)),
        secret,
      ).toEqual([]);
    }
  });

  it('reports the revision each environment serves and how long ago its newest change started being served', async () => {
    await sleep(300);
    const earlier = await scrape(app);
    const labels = { environment: env.ulid, environment_key: 'production' };
    expect(sampleValue(earlier, 'vexil_snapshot_revision', labels)).toBe(await fx.revision(env.ulid));
    const age = sampleValue(earlier, 'vexil_snapshot_age_seconds', labels);
    expect(age).toBeGreaterThanOrEqual(0.25);
    await fx.publish(env, flags.byDefault!, { value: 'true' });
    const revision = await fx.settle(env);
    const later = await scrape(app);
    expect(sampleValue(later, 'vexil_snapshot_revision', labels)).toBe(revision);
    expect(sampleValue(later, 'vexil_snapshot_age_seconds', labels)).toBeLessThan(age);
  });

  it('reports the audit and telemetry buffers: depth, rows written, rows dropped', async () => {
    await app.composition.publicAudit.flush();
    await fx.flushTelemetry();
    const before = await scrape(app);
    await evaluate(flagKey);
    await evaluate(flagKey);
    const buffered = await scrape(app);
    // The background task may write one of the two in between (it runs every second): what the
    // buffer holds and what it has written since add up to both.
    const auditDepth = sampleValue(buffered, 'vexil_buffer_entries', { buffer: 'public_audit' });
    const auditWrittenMeanwhile =
      sampleValue(buffered, 'vexil_buffer_rows_written_total', { buffer: 'public_audit' }) -
      sampleValue(before, 'vexil_buffer_rows_written_total', { buffer: 'public_audit' });
    expect(auditDepth + auditWrittenMeanwhile).toBe(2);
    expect(sampleValue(buffered, 'vexil_buffer_entries', { buffer: 'telemetry' })).toBeGreaterThanOrEqual(1);
    await app.composition.publicAudit.flush();
    await fx.flushTelemetry();
    const after = await scrape(app);
    const written = (buffer: string) =>
      sampleValue(after, 'vexil_buffer_rows_written_total', { buffer }) -
      sampleValue(before, 'vexil_buffer_rows_written_total', { buffer });
    // The two evaluations and the scrape in between (not audited: /metrics is outside the APIs).
    expect(written('public_audit')).toBe(2);
    expect(written('telemetry')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, 'vexil_buffer_entries', { buffer: 'public_audit' })).toBe(0);
    expect(hasSample(after, 'vexil_buffer_rows_dropped_total', { buffer: 'public_audit' })).toBe(true);
    expect(hasSample(after, 'vexil_buffer_rows_dropped_total', { buffer: 'telemetry' })).toBe(true);
    const audited = await app.knex('public_audit_entries').where('http_path', '/metrics').count({ n: '*' });
    expect(Number((audited as Array<{ n: number }>)[0]!.n)).toBe(0);
  });

  it('counts open event streams', async () => {
    const before = sampleValue(await scrape(app), 'vexil_stream_connections');
    const abort = new AbortController();
    const stream = await fetch(`${app.baseUrl}/v1/stream`, { headers: { 'x-vexil-api-key': env.serverKey }, signal: abort.signal });
    expect(stream.status).toBe(200);
    await waitFor(async () => sampleValue(await scrape(app), 'vexil_stream_connections') === before + 1, 3000, 'stream counted');
    abort.abort();
    await waitFor(async () => sampleValue(await scrape(app), 'vexil_stream_connections') === before, 3000, 'stream closed');
  });

  it('times database statements by SQL verb and counts the failed ones', async () => {
    const before = await scrape(app);
    await app.mgmt('GET', '/projects');
    await expect(app.knex.raw('select * from no_such_table_here')).rejects.toThrow();
    const after = await scrape(app);
    expect(sampleValue(after, 'vexil_db_query_duration_seconds_count', { operation: 'select' })).toBeGreaterThan(
      sampleValue(before, 'vexil_db_query_duration_seconds_count', { operation: 'select' }),
    );
    expect(
      sampleValue(after, 'vexil_db_query_errors_total', { operation: 'select' }) -
        sampleValue(before, 'vexil_db_query_errors_total', { operation: 'select' }),
    ).toBe(1);
  });

  it('counts scheduler runs', async () => {
    const runs = async () => sampleValue(await scrape(app), 'vexil_scheduler_runs_total', { result: 'success' });
    const first = await runs();
    await waitFor(async () => (await runs()) > first, 3000, 'a scheduler run');
  });
});

describeEachDatabase('metrics: rate limits, token and own port', (db) => {
  let limited: TestApp;
  let guarded: TestApp;
  let ownPort: TestApp;
  let metricsServer: Server;
  let metricsUrl: string;
  const token = 'scrape-token-0123456789abcdef';

  beforeAll(async () => {
    limited = await startTestApp(db, { config: { publicRateLimit: 2 } });
    guarded = await startTestApp(db, { config: { metrics: { tokenDigest: digestSecret(token), port: undefined } } });
    ownPort = await startTestApp(db, { config: { metrics: { tokenDigest: undefined, port: 1 } } });
    const app = metricsApp(ownPort.composition.metrics, ownPort.composition.core.config.metrics, pino({ level: 'silent' }));
    metricsServer = await new Promise((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => metricsServer?.close(resolve));
    await limited?.close();
    await guarded?.close();
    await ownPort?.close();
  });

  it('counts rate-limit refusals, and never limits /metrics, /health or /ready', async () => {
    for (let i = 0; i < 4; i++) await limited.request('GET', '/v1/api-docs');
    for (const path of ['/metrics', '/health', '/ready']) {
      for (let i = 0; i < 5; i++) {
        const res = await limited.request('GET', path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('x-ratelimit-limit'), path).toBeNull();
      }
    }
    // The limit was still spent meanwhile: the public API refuses.
    expect((await limited.request('GET', '/v1/api-docs')).status).toBe(429);
    const metrics = await scrape(limited);
    expect(sampleValue(metrics, 'vexil_rate_limit_rejections_total', { api: 'public' })).toBe(3);
    expect(sampleValue(metrics, durationCount, { api: 'public', operation: 'getPublicApiDocs', status_class: '4xx' })).toBe(3);
  });

  it('with a token set, answers 401 without it or with another, and the metrics with it', async () => {
    const missing = await guarded.request('GET', '/metrics');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ status: 'error', code: 'missing_token' });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="vexil-metrics"');
    for (const wrong of [`${token}x`, token.slice(1), 'x', `Basic ${token}`]) {
      const res = await guarded.request('GET', '/metrics', {
        headers: { authorization: wrong.startsWith('Basic') ? wrong : `Bearer ${wrong}` },
      });
      expect(res.status, wrong).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain(token);
    }
    const invalid = await guarded.request('GET', '/metrics', { token: 'not-the-token-at-all' });
    expect(invalid.body).toMatchObject({ code: 'invalid_token' });
    const ok = await guarded.request('GET', '/metrics', { token });
    expect(ok.status).toBe(200);
    expect(parseExposition(ok.body as string).types.get('vexil_evaluations_total')).toBe('counter');
    // The token guards /metrics only.
    expect((await guarded.request('GET', '/health')).status).toBe(200);
  });

  it('on its own port: served there, 404 on the API port, 405 for other methods, nothing else there', async () => {
    const there = await fetch(`${metricsUrl}/metrics`);
    expect(there.status).toBe(200);
    expect(parseExposition(await there.text()).types.get('vexil_http_request_duration_seconds')).toBe('histogram');
    const onApiPort = await ownPort.request('GET', '/metrics');
    expect(onApiPort.status).toBe(404);
    expect(onApiPort.body).toMatchObject({ status: 'error', code: 'not_found' });
    const post = await fetch(`${metricsUrl}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await post.json()).toMatchObject({ code: 'method_not_allowed' });
    expect((await fetch(`${metricsUrl}/v1/flags`)).status).toBe(404);
    // Requests on the API port are still counted, and shown on the metrics port.
    await ownPort.request('GET', '/health');
    const metrics = parseExposition(await (await fetch(`${metricsUrl}/metrics`)).text());
    expect(sampleValue(metrics, durationCount, { operation: 'getHealth' })).toBeGreaterThanOrEqual(1);
  });
});

describeEachDatabase('metrics: webhook deliveries', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    app = await startTestApp(db, {
      config: { webhooks: { ...fastWebhooks, disableAfter: 10 } },
    });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('counts delivery attempts by result', async () => {
    await app.mgmt('POST', '/projects', { key: 'hooked', name: 'Hooked' });
    expect((await app.mgmt('POST', '/projects/hooked/webhooks', { url: receiver.url, events: ['flag.created'] })).status).toBe(200);
    receiver.answers = [{ status: 500 }];
    await app.mgmt('POST', '/projects/hooked/flags', { key: 'announced', name: 'Announced', type: 'boolean' });
    await receiver.waitFor(() => receiver.received.length === 2);
    const attempts = async (result: string) => sampleValue(await scrape(app), 'vexil_webhook_delivery_attempts_total', { result });
    await waitFor(async () => (await attempts('delivered')) === 1, 3000, 'the delivery counted');
    expect(await attempts('retrying')).toBe(1);
    expect(await attempts('failed')).toBe(0);
  });
});
