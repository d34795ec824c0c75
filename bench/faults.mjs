#!/usr/bin/env node
/**
 * The serving path under faults: evaluation latency (GET /v1/flags/{key} with a context, the
 * scenario-1 flag) and /health latency, measured normally, while Redis is frozen (behind a proxy
 * this script pauses: connections open, nothing answered) and while another connection holds
 * the SQLite write lock (BEGIN IMMEDIATE), each for BENCH_FAULT_SECONDS (default 20). Management
 * writes run meanwhile (5 a second) and their answers are counted. The server is `node
 * dist/src/main.js` on SQLite with the public rate limit on (so every evaluation takes a
 * rate-limit decision) and REDIS_URL through the proxy. Needs `make build` and Redis at
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379). Writes bench/results/faults.md.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Api } from './lib/api.mjs';
import { PausableProxy } from './lib/pausable-proxy.mjs';
import { removeTempFiles, serverNode, serverNodeVersion, startVexil } from './lib/server.mjs';
import { BENCH_DIR, percentile, sleep } from './lib/util.mjs';
import { scenarioOneRequest, setupScenarioOne } from './scenarios/evaluation.mjs';

const seconds = Number(process.env.BENCH_FAULT_SECONDS ?? 20);
const redisUrl = new URL(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
const log = (line) => process.stderr.write(`${line}\n`);
const Database = createRequire(import.meta.url)('better-sqlite3');

/** One connection, one request at a time, in its own process (bench/workers/sequential.mjs). */
function sequential(url, headers, duration) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      serverNode,
      [path.join(BENCH_DIR, 'workers', 'sequential.mjs'), JSON.stringify({ url, headers, warmup: 0, duration })],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`sequential worker exited with ${code}`))));
  });
}

/** Management writes, 5 a second, for `duration` seconds: answers by status and the slowest. */
async function writes(api, project, label, duration) {
  const statuses = {};
  const latencies = [];
  const end = Date.now() + duration * 1000;
  let n = 0;
  const inFlight = [];
  while (Date.now() < end) {
    const started = performance.now();
    inFlight.push(
      api
        .request('POST', `/management/v1/projects/${project}/flags`, {
          headers: { authorization: `Bearer ${api.token}` },
          body: { key: `${label}-${n++}`, name: 'Fault flag', type: 'boolean' },
        })
        .then((res) => {
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          latencies.push(performance.now() - started);
        }),
    );
    await sleep(200);
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  return { statuses, max: latencies[latencies.length - 1] ?? 0, p50: percentile(latencies, 50) ?? 0 };
}

/** Evaluations, /health and writes side by side for one phase. */
async function phase(vexil, api, request, label) {
  log(`faults: ${label} (${seconds} s)`);
  const [evaluation, health, written] = await Promise.all([
    sequential(vexil.baseUrl + request.path, request.headers, seconds),
    sequential(`${vexil.baseUrl}/health`, {}, seconds),
    writes(api, 'bench-s1', label.toLowerCase().replace(/\W+/g, '-'), seconds),
  ]);
  return { label, evaluation, health, written };
}

const proxy = new PausableProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
const proxyPort = await proxy.start();
const vexil = await startVexil({
  label: 'faults',
  env: {
    REDIS_URL: `redis://127.0.0.1:${proxyPort}`,
    VEXIL_REDIS_PREFIX: `vexil-bench-faults-${process.pid}:`,
    VEXIL_PUBLIC_RATE_LIMIT: '100000000',
  },
});
const results = [];
let lockHolder;
try {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  const { apiKey } = await setupScenarioOne(api);
  const request = scenarioOneRequest(apiKey);
  await sleep(1000);
  results.push(await phase(vexil, api, request, 'normal'));

  proxy.pause();
  try {
    results.push(await phase(vexil, api, request, 'Redis frozen'));
  } finally {
    proxy.resume();
  }
  const ready = await (await fetch(`${vexil.baseUrl}/ready`)).json();
  if (ready.redis !== 'up') await sleep(1000);

  lockHolder = new Database(vexil.database.file);
  lockHolder.exec('BEGIN IMMEDIATE');
  try {
    results.push(await phase(vexil, api, request, 'SQLite write lock'));
  } finally {
    lockHolder.exec('ROLLBACK');
    lockHolder.close();
  }
} finally {
  await vexil.stop();
  await proxy.stop();
  removeTempFiles();
}

const ms = (n) => `${n.toFixed(2)} ms`;
const normal = results[0].evaluation.p99;
const rows = results.map(
  (r) =>
    `| ${r.label} | ${r.evaluation.total} | ${ms(r.evaluation.p50)} | ${ms(r.evaluation.p99)} | ${(r.evaluation.p99 / normal).toFixed(2)} | ${ms(r.evaluation.max)} | ${ms(r.health.p99)} | ${ms(r.health.max)} | ${Object.entries(
      r.written.statuses,
    )
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ')} | ${ms(r.written.max)} |`,
);
const cpus = os.cpus();
const table = [
  '# The serving path under faults',
  '',
  `\`node bench/faults.mjs\` (after \`make build\`), ${new Date().toISOString().slice(0, 10)}, ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, Node ${serverNodeVersion}, SQLite, Redis through a pausable proxy, each phase ${seconds} s.`,
  'Evaluation: GET /v1/flags/{key} with a context (the scenario-1 flag: 5 rules of 3 criteria, 50 % rollout), one connection,',
  'the public rate limit on; /health likewise, side by side; management writes (flag creations) 5 a second meanwhile.',
  'The machine is shared: compare the phases of one run, not runs.',
  '',
  '| phase | evaluations | p50 | p99 | p99 / normal | slowest | /health p99 | /health slowest | writes | slowest write |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'Targets: with Redis frozen, evaluation p99 within 2× of normal and no request over 1 s; with the SQLite write lock held, the same for',
  'evaluations and /health. Writes during the lock answer 503 `database_unavailable` after `VEXIL_SQLITE_LOCK_WAIT_MS` (5 s).',
  '',
].join('\n');
fs.mkdirSync(path.join(BENCH_DIR, 'results'), { recursive: true });
fs.writeFileSync(path.join(BENCH_DIR, 'results', 'faults.md'), table);
process.stdout.write(table);
