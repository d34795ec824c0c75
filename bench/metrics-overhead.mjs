#!/usr/bin/env node
/**
 * What the metrics add to one request, measured in-process (no HTTP, no load generator): the
 * request-duration middleware (src/observability/request-metrics.ts) composed in front of a
 * handler as Koa composes the app, against the handler alone; one evaluation counted by reason;
 * and the request id (request-log.ts below `info`). Runs from dist/ (`make build`). Complements scenario 1 of `bench/run.mjs`, whose
 * run-to-run noise on a shared machine is larger than these costs.
 *
 *   node bench/metrics-overhead.mjs [iterations, default 2000000]
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = (file) => import(pathToFileURL(path.join(root, 'dist', 'src', file)).href);
const { Metrics } = await load('observability/metrics.js');
const { requestMetrics } = await load('observability/request-metrics.js');
const { requestLog } = await load('http/request-log.js');
const { default: compose } = await import('koa-compose');
const { default: Koa } = await import('koa');
const { default: pino } = await import('pino');

const iterations = Number(process.argv[2] ?? 2_000_000);
const metrics = new Metrics({ processMetrics: false });
const operation = { operationId: 'getEvaluatedFlag', pathTemplate: '/v1/flags/{flagKey}' };
const ctx = { state: { operation }, path: '/v1/flags/checkout-redesign', method: 'GET', status: 200 };
// The rest of the request path, reduced to the status it sets; composed as Koa composes the app.
const handler = async (c) => {
  c.status = 200;
};
const without = compose([handler]);
const withMetrics = compose([requestMetrics(metrics.requestDurations), handler]);

async function time(chain) {
  for (let i = 0; i < 100_000; i++) await chain(ctx);
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await chain(ctx);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / iterations;
}

function timeCounting() {
  const counts = metrics.evaluations;
  const reasons = ['target', 'rule', 'rollout', 'default'];
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) counts[reasons[i & 3]]++;
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / iterations;
}

/** Median over 5 rounds of the CPU `chain` adds to `baseline` per request, in ns. */
async function added(baseline, chain) {
  const rounds = [];
  for (let round = 0; round < 5; round++) {
    const base = await time(baseline);
    const measured = await time(chain);
    rounds.push(measured - base);
  }
  rounds.sort((a, b) => a - b);
  return { median: rounds[2], rounds };
}
const report = (what, { median, rounds }) =>
  console.log(
    `${what}: +${median.toFixed(0)} ns CPU per request (median of 5 rounds of ${iterations.toLocaleString('en')}; rounds ${rounds.map((r) => r.toFixed(0)).join(', ')} ns)`,
  );

report('request-duration middleware', await added(without, withMetrics));
console.log(`evaluation counted by reason: ${timeCounting().toFixed(1)} ns`);

// The request id (src/http/request-log.ts at LOG_LEVEL=warn, as in the benchmarks): a real Koa
// context, since it reads the request header and sets the response header.
const app = new Koa();
const request = new http.IncomingMessage(new net.Socket());
request.headers = { 'x-request-id': 'trace-0123456789' };
request.method = 'GET';
request.url = '/v1/flags/checkout-redesign';
const koaCtx = app.createContext(request, new http.ServerResponse(request));
const koaWithout = compose([handler]);
const koaWithId = compose([requestLog(pino({ level: 'warn' })), handler]);
const timeKoa = async (chain) => {
  for (let i = 0; i < 100_000; i++) await chain(koaCtx);
  const started = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await chain(koaCtx);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / iterations;
};
const idRounds = [];
for (let round = 0; round < 5; round++) idRounds.push((await timeKoa(koaWithId)) - (await timeKoa(koaWithout)));
idRounds.sort((a, b) => a - b);
report('X-Request-Id (kept from the request)', { median: idRounds[2], rounds: idRounds });
console.log(
  `series recorded: ${(await metrics.exposition()).text.includes('operation="getEvaluatedFlag",status_class="2xx"') ? 'yes' : 'NO'}`,
);
