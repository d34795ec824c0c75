import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

const ownerToken = `pat_${'t'.repeat(40)}`;
const freePort = serverPort;

interface Running {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop(): Promise<void>;
}

/** The real server (src/main.ts) as a process; its stdout and stderr are kept for the test. */
async function startVexil(env: Record<string, string>): Promise<Running> {
  const port = freePort();
  requireFreshBuild();
  const child = spawn(process.execPath, ['--import', './test/support/record-module-loads.mjs', builtServer], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      VEXIL_INIT_OWNER_TOKEN: ownerToken,
      VEXIL_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const started = Date.now();
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() - started > 120_000) throw new Error(`Vexil did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    port,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitFor<T>(check: () => T | undefined | false, withinMs: number, what: string): Promise<T> {
  const started = Date.now();
  for (;;) {
    const result = check();
    if (result !== undefined && result !== false) return result;
    if (Date.now() - started > withinMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe.each(testDatabases)('tracing of a real process ($name)', (db) => {
  let receiver: OtlpReceiver;
  let vexil: Running;
  let database: { url: string; drop(): Promise<void> };
  const modules = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-otel-')), 'modules.log');

  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    database = await db.create();
    vexil = await startVexil({
      DATABASE_URL: database.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'vexil-under-test',
      VEXIL_TEST_MODULE_LOG: modules,
    });
  }, 60_000);
  afterAll(async () => {
    await vexil?.stop();
    await receiver?.close();
    await database?.drop();
  });

  const spansOf = (traceId: string) => receiver.spans().filter((s) => s.traceId === traceId);

  it('exports the request, handler and database spans under the caller traceparent', async () => {
    const traceId = hex(16);
    const parentId = hex(8);
    const res = await fetch(`http://127.0.0.1:${vexil.port}/management/v1/projects`, {
      headers: { authorization: `Bearer ${ownerToken}`, traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');

    const spans = await waitFor(
      () => {
        const found = spansOf(traceId);
        return (
          found.some((s) => s.kind === 2) &&
          found.some((s) => s.name === 'handler listProjects') &&
          found.some((s) => s.kind === 3) &&
          found
        );
      },
      10_000,
      'exported spans',
    );
    const request = spans.find((s) => s.kind === 2) as ReceivedSpan;
    expect(request).toMatchObject({ name: 'GET /management/v1/projects', parentSpanId: parentId });
    expect(request.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/management/v1/projects',
      'http.response.status_code': 200,
      'vexil.operation_id': 'listProjects',
      'vexil.request_id': requestId,
    });
    const handler = spans.find((s) => s.name === 'handler listProjects') as ReceivedSpan;
    expect(handler.parentSpanId).toBe(request.spanId);
    const queries = spans.filter((s) => s.kind === 3);
    // OpenTelemetry's names of the database systems.
    const system = { mariadb: 'mysql', postgres: 'postgresql', sqlite: 'sqlite' }[db.name];
    for (const query of queries) {
      expect(query.attributes['db.system.name']).toBe(system);
      expect([request.spanId, handler.spanId]).toContain(query.parentSpanId);
      expect(String(query.attributes['db.query.text'])).not.toContain(ownerToken);
    }
    // The handler's own statements (listing projects) are children of the handler span.
    expect(queries.some((q) => q.parentSpanId === handler.spanId && q.attributes['db.operation.name'] === 'select')).toBe(true);
    // Every span is exported with the service name given by OTEL_SERVICE_NAME.
    expect(receiver.exports.every((e) => e.path === '/v1/traces')).toBe(true);
    expect(receiver.exports.some((e) => e.body.toString().includes('vexil-under-test'))).toBe(true);
  });

  it('traces the evaluation path too, and starts a new trace without a traceparent (or with a malformed one)', async () => {
    const created = await fetch(`http://127.0.0.1:${vexil.port}/management/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: `traced-${hex(3)}`, name: 'Traced', environments: [{ key: 'production', name: 'Production' }] }),
    }).then((r) => r.json() as Promise<{ data: { key: string } }>);
    const key = await fetch(`http://127.0.0.1:${vexil.port}/management/v1/projects/${created.data.key}/environments/production/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'server' }),
    }).then((r) => r.json() as Promise<{ data: { key: string } }>);
    const traceId = hex(16);
    const parentId = hex(8);
    const evaluated = await fetch(`http://127.0.0.1:${vexil.port}/v1/flags`, {
      headers: { 'x-vexil-api-key': key.data.key, traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(evaluated.status).toBe(200);
    const spans = await waitFor(() => spansOf(traceId).length >= 2 && spansOf(traceId), 10_000, 'evaluation spans');
    const request = spans.find((s) => s.kind === 2) as ReceivedSpan;
    expect(request).toMatchObject({ name: 'GET /v1/flags', parentSpanId: parentId });
    expect(spans.find((s) => s.name === 'handler listEvaluatedFlags')?.parentSpanId).toBe(request.spanId);

    const before = new Set(receiver.spans().map((s) => s.spanId));
    for (const traceparent of [undefined, 'not-a-traceparent', `00-${'0'.repeat(32)}-${parentId}-01`]) {
      const res = await fetch(`http://127.0.0.1:${vexil.port}/health`, { headers: traceparent ? { traceparent } : {} });
      expect(res.status).toBe(200);
    }
    const fresh = await waitFor(
      () => {
        const roots = receiver.spans().filter((s) => !before.has(s.spanId) && s.kind === 2 && s.attributes['url.path'] === '/health');
        return roots.length === 3 && roots;
      },
      10_000,
      'health spans',
    );
    for (const span of fresh) {
      expect(span.parentSpanId).toBe('');
      expect(span.traceId).not.toBe('0'.repeat(32));
    }
  });

  it('loads the OpenTelemetry SDK because trace export is on', () => {
    expect(fs.readFileSync(modules, 'utf8')).toContain('@opentelemetry/sdk-trace');
  });
});

describe('tracing and metrics settings of a real process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-obs-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('exports OTLP protobuf by default, carrying the incoming trace and parent ids', async () => {
    const receiver = await new OtlpReceiver().start();
    const vexil = await startVexil({
      DATABASE_URL: `sqlite:${dir}/protobuf.db`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      const traceId = hex(16);
      const parentId = hex(8);
      await fetch(`http://127.0.0.1:${vexil.port}/management/v1/projects`, {
        headers: { authorization: `Bearer ${ownerToken}`, traceparent: `00-${traceId}-${parentId}-01` },
      });
      const body = await waitFor(
        () => receiver.exports.find((e) => e.body.includes(Buffer.from(traceId, 'hex')))?.body,
        10_000,
        'a protobuf export',
      );
      const received = receiver.exports.find((e) => e.body === body)!;
      expect(received.contentType).toBe('application/x-protobuf');
      expect(received.path).toBe('/v1/traces');
      expect(body.includes(Buffer.from(parentId, 'hex'))).toBe(true);
      expect(body.includes(Buffer.from('GET /management/v1/projects'))).toBe(true);
    } finally {
      await vexil.stop();
      await receiver.close();
    }
  }, 60_000);

  it('without an OTLP endpoint loads no OpenTelemetry SDK; metrics on their own port with a token that is never logged', async () => {
    const modules = path.join(dir, 'untraced-modules.log');
    const metricsPort = freePort();
    const token = `scrape-${hex(16)}`;
    const vexil = await startVexil({
      DATABASE_URL: `sqlite:${dir}/untraced.db`,
      VEXIL_TEST_MODULE_LOG: modules,
      VEXIL_METRICS_PORT: String(metricsPort),
      VEXIL_METRICS_TOKEN: token,
      LOG_LEVEL: 'trace',
    });
    try {
      const api = `http://127.0.0.1:${vexil.port}`;
      const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
      expect((await fetch(`${api}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
      expect((await fetch(metrics)).status).toBe(401);
      expect((await fetch(metrics, { headers: { authorization: `Bearer ${token}-wrong` } })).status).toBe(401);
      await fetch(`${api}/health`);
      const ok = await fetch(metrics, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      const scraped = parseExposition(await ok.text());
      expect(
        sampleValue(scraped, 'vexil_http_request_duration_seconds_count', { api: 'operations', operation: 'getHealth' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sampleValue(scraped, 'vexil_process_resident_memory_bytes')).toBeGreaterThan(0);
    } finally {
      await vexil.stop();
    }
    expect(vexil.output()).toContain('"msg":"request"');
    expect(vexil.output()).not.toContain(token);
    // prom-client imports the OpenTelemetry API (a no-op facade without an SDK behind it); no SDK,
    // exporter or context manager is loaded.
    const loaded = (fs.existsSync(modules) ? fs.readFileSync(modules, 'utf8') : '')
      .split('\n')
      .filter((name) => name !== '' && name !== '@opentelemetry/api');
    expect(loaded).toEqual([]);
  }, 60_000);

  it('stops the start with one line for a port in use or a token too short', async () => {
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        requireFreshBuild();
        const child = spawn(process.execPath, [builtServer], {
          env: {
            ...process.env,
            DATABASE_URL: `sqlite:${dir}/refused.db`,
            PORT: String(freePort()),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'silent',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
        child.once('exit', (code) => resolve({ code, output }));
      });
    const short = await run({ VEXIL_METRICS_TOKEN: 'short-secret' });
    expect(short.code).toBe(1);
    expect(short.output.trim()).toBe('Vexil cannot start: VEXIL_METRICS_TOKEN must be 16 to 512 printable characters without spaces');
    const blocker = await startVexil({ DATABASE_URL: `sqlite:${dir}/blocker.db` });
    try {
      const taken = await run({ VEXIL_METRICS_PORT: String(blocker.port) });
      expect(taken.code).toBe(1);
      expect(taken.output.trim()).toMatch(/^Vexil cannot start: port \d+ is already in use .*VEXIL_METRICS_PORT/);
    } finally {
      await blocker.stop();
    }
  }, 60_000);
});
