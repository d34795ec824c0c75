#!/usr/bin/env node
/**
 * `make bench`: every performance scenario of issue 6, one table, written to
 * bench/results/latest.md (and latest.json).
 *
 * Method: each HTTP scenario is loaded by autocannon in a separate process (50 connections,
 * BENCH_WARMUP s of warm-up discarded, then BENCH_DURATION s measured; defaults 3 and 10), and
 * the same load is run in the same run against two baselines started as separate processes that
 * return the same status, headers and body bytes as Vexil's response: a bare node:http server
 * and a Koa + @koa/router server. Memory is the server process's peak RSS (VmHWM).
 *
 * The servers run from dist/ (`make build`), each on a fresh database: a SQLite file by default,
 * or a database created on the MySQL/MariaDB server of DATABASE_URL=mysql://... (dropped after).
 * Scenario 6 runs on SQLite (6s), on MariaDB (6m: DATABASE_URL, BENCH_MYSQL_URL or
 * mysql://root@127.0.0.1:3306), on PostgreSQL (6p: a database created on DATABASE_URL=postgres://,
 * BENCH_POSTGRES_URL or postgres://postgres@127.0.0.1:5432, dropped after; its p99 is also given
 * as a ratio to SQLite's) and on a three-node Galera cluster of the run's own (6g: the test
 * harness, started and stopped around the scenario). A scenario whose endpoints are not built, or
 * whose database is missing, reports "not available".
 *
 * Environment: BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_ONLY (e.g. "1,5,6", or
 * "6s,6p" for some of scenario 6's databases),
 * BENCH_AUDIT_ENTRIES (100000), BENCH_SCALE_FLAGS (10000), BENCH_PROFILE=1 (servers run with
 * --cpu-prof; profiles in bench/results/profiles, summarise with bench/profile-summary.mjs),
 * BENCH_SKIP_SDK=1, BENCH_NODE (the node binary the servers run on; the machine line names its version).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auditScenario } from './scenarios/audit.mjs';
import { engineScenario } from './scenarios/engine.mjs';
import { EVENT_LOOP_RATE, EVENT_LOOP_SECONDS, eventLoopScenario, prepareEventLoop } from './scenarios/event-loop.mjs';
import { evaluationScenarios } from './scenarios/evaluation.mjs';
import { scaleScenario } from './scenarios/scale.mjs';
import { WRITE_CLIENTS, writeCycle } from './scenarios/writes.mjs';
import {
  liveDatabases,
  mainDialect,
  mysqlReachable,
  mysqlServerUrl,
  postgresReachable,
  postgresServerUrl,
  removeTempFiles,
  running,
  serverNodeVersion,
  startVexil,
} from './lib/server.mjs';
import { BENCH_DIR, DIST, NotAvailable, ROOT, fmtInt, fmtMs, settings } from './lib/util.mjs';

const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : undefined;
const wanted = (id) => !only || only.has(id);
/** A scenario's variant (e.g. 6p) runs when it or its scenario (6) is named. */
const wantedVariant = (id) => wanted(id) || wanted(id.replace(/[a-z]+$/, ''));
const log = (line) => process.stderr.write(`${line}\n`);

// ---- rows of the table -------------------------------------------------------------------------
const dialect = mainDialect();
const dbName = (d) => (d === 'mysql' ? 'MariaDB' : 'SQLite');
const rows = [
  {
    id: '1',
    scenario: 'GET /v1/flags/{key}, context header, 5 rules x 3 criteria + rollout',
    db: dbName(dialect),
    target: '>= 50 % of node:http req/s; p99 <= 5 ms',
  },
  {
    id: '1b',
    scenario: 'Scenario 1 with a new context identifier on every request',
    db: dbName(dialect),
    target: 'reported',
  },
  { id: '2', scenario: 'GET /v1/flags, 200 flags, context header', db: dbName(dialect), target: '>= 50 % of node:http req/s' },
  {
    id: '2b',
    scenario: 'Scenario 2 with a new context identifier on every request',
    db: dbName(dialect),
    target: 'reported',
  },
  { id: '3a', scenario: 'GET /v1/payload, If-None-Match -> 304', db: dbName(dialect), target: '>= 50 % of node:http req/s' },
  { id: '3b', scenario: 'GET /v1/payload -> 200, 1,000 flags (server key)', db: dbName(dialect), target: '>= 50 % of node:http req/s' },
  { id: '4', scenario: 'OFREP bulk evaluation, 50 flags', db: dbName(dialect), target: 'reported' },
  { id: '5', scenario: 'Engine alone, scenario-1 flag, one core (evaluations/s)', db: '–', target: '>= 2,000,000 evals/s' },
  { id: '6s', scenario: `Write cycle with Idempotency-Key, ${WRITE_CLIENTS} clients (per request)`, db: 'SQLite', target: 'p99 <= 20 ms' },
  { id: '6m', scenario: `Write cycle with Idempotency-Key, ${WRITE_CLIENTS} clients (per request)`, db: 'MariaDB', target: 'p99 <= 20 ms' },
  {
    id: '6p',
    scenario: `Write cycle with Idempotency-Key, ${WRITE_CLIENTS} clients (per request)`,
    db: 'PostgreSQL',
    target: "p99 <= 20 ms; within 1.5x of SQLite's p99",
  },
  {
    id: '6g',
    scenario: `Write cycle with Idempotency-Key, ${WRITE_CLIENTS} clients (per request)`,
    db: 'Galera (3 nodes)',
    target: 'reported',
  },
  { id: '7a', scenario: 'GET /audit-logs, page 1', db: dbName(dialect), target: 'p99 <= 10 ms' },
  {
    id: '7b',
    scenario: `GET /audit-logs, page after ${fmtInt(settings.auditEntries)} entries (cursor)`,
    db: dbName(dialect),
    target: 'p99 <= 10 ms; within 2x of page 1',
  },
  {
    id: '8a',
    scenario: `Scale: scenario 1 with ${fmtInt(settings.scaleFlags)} flags x 3 environments loaded`,
    db: dbName(dialect),
    target: 'req/s within 10 % of scenario 1',
  },
  { id: '8b', scenario: 'Scale: peak RSS of the server', db: dbName(dialect), target: '<= 250 MB' },
  { id: '8c', scenario: 'Scale: change published -> served by the public API', db: dbName(dialect), target: '<= 200 ms' },
  {
    id: '9',
    scenario: `Event-loop delay, scenario 1 at ${fmtInt(EVENT_LOOP_RATE)} req/s for ${EVENT_LOOP_SECONDS} s with 5 changes/s`,
    db: dbName(dialect),
    target: 'p99 <= 5 ms',
  },
  {
    id: '9s',
    scenario: `Event-loop delay, scenario 1 as fast as served for ${EVENT_LOOP_SECONDS} s with 5 changes/s`,
    db: dbName(dialect),
    target: 'reported, with its floor',
  },
];
const byId = new Map(rows.map((r) => [r.id, r]));
const notes = [];

function group(id) {
  if (id === '3') return ['3a', '3b'];
  if (id === '6') return ['6s', '6m', '6p', '6g'];
  if (id === '7') return ['7a', '7b'];
  if (id === '8') return ['8a', '8b', '8c'];
  return [id];
}

function markUnavailable(id, reason) {
  for (const rid of group(id)) {
    const row = byId.get(rid);
    if (row && !row.result) row.result = `not available: ${reason}`;
  }
}

function markError(id, error) {
  const first = String(error?.stack ?? error)
    .split('\n')[0]
    .slice(0, 300);
  for (const rid of group(id)) {
    const row = byId.get(rid);
    if (row && !row.result) row.result = `error: ${first}`;
  }
  log(String(error?.stack ?? error).slice(0, 3000));
}

/** Fills a row from a measureHttp result. */
function fillHttp(row, m) {
  row.rps = m.vexil.rps;
  row.p50 = m.vexil.p50;
  row.p99 = m.vexil.p99;
  row.httpRps = m['node-http']?.rps;
  row.koaRps = m['koa-router']?.rps;
  row.koaRatio = row.koaRps ? row.rps / row.koaRps : undefined;
  row.httpRatio = row.httpRps ? row.rps / row.httpRps : undefined;
  row.detail = [
    `response ${m.status}, ${fmtInt(m.responseBytes)} body bytes`,
    `server CPU ${fmtInt(m.vexil.serverCpuUsPerReq)} µs/request (${Math.round(100 * m.vexil.serverCpuShare)} % of a core)`,
    m['koa-router']
      ? `per core of server CPU: Vexil ${fmtInt(1e6 / m.vexil.serverCpuUsPerReq)} req/s, koa ${fmtInt(1e6 / m['koa-router'].serverCpuUsPerReq)} req/s (${Math.round((100 * m['koa-router'].serverCpuUsPerReq) / m.vexil.serverCpuUsPerReq)} %), node:http ${fmtInt(1e6 / m['node-http'].serverCpuUsPerReq)} req/s`
      : undefined,
    m['koa-router']
      ? `koa p50/p99 ${fmtMs(m['koa-router'].p50)}/${fmtMs(m['koa-router'].p99)} ms, node:http p50/p99 ${fmtMs(m['node-http'].p50)}/${fmtMs(m['node-http'].p99)} ms`
      : undefined,
    m['node-http'] && m.rounds.length > 1
      ? `turns (Vexil / node:http req/s): ${m.rounds.map((r) => `${fmtInt(r.vexil)} / ${fmtInt(r['node-http'])} (${(r.vexil / r['node-http']).toFixed(2)})`).join(', ')}`
      : undefined,
    m.vexil.warning ? `load: ${m.vexil.warning}` : undefined,
  ].filter(Boolean);
}

const verdict = (ok) => (ok ? 'met' : 'MISSED');

// ---- machine --------------------------------------------------------------------------------------
function machine() {
  let model = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) model = m[1].trim();
  } catch {
    // keep os.cpus()
  }
  let commit = '';
  try {
    const head = fs.readFileSync(path.join(ROOT, '.git', 'HEAD'), 'utf8').trim();
    commit = head.startsWith('ref: ')
      ? fs
          .readFileSync(path.join(ROOT, '.git', head.slice(5)), 'utf8')
          .trim()
          .slice(0, 12)
      : head.slice(0, 12);
  } catch {
    // not a git checkout
  }
  return {
    cpu: model,
    cores: os.cpus().length,
    memoryGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    node: serverNodeVersion,
    os: `${os.type()} ${os.release()}`,
    date: new Date().toISOString(),
    loadStart: os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' '),
    commit,
  };
}

// ---- scenarios ------------------------------------------------------------------------------------
async function withServer(label, options, fn) {
  const vexil = await startVexil({ label, ...options });
  try {
    return await fn(vexil);
  } finally {
    await vexil.stop();
  }
}

let scenarioOneRps;

async function runEvaluation() {
  if (!['1', '2', '3', '4'].some(wanted)) return;
  log(`Scenarios 1-4 (public evaluation API, ${dbName(dialect)})`);
  try {
    await evaluationOnServer();
  } catch (error) {
    for (const id of ['1', '1b', '2', '2b', '3', '4']) {
      if (error instanceof NotAvailable) markUnavailable(id, error.message);
      else markError(id, error);
    }
  }
}

async function evaluationOnServer() {
  await withServer('main', { dialect }, async (vexil) => {
    await evaluationScenarios(
      vexil,
      (id, outcome) => {
        if (outcome.notAvailable) return markUnavailable(id, outcome.notAvailable);
        if (outcome.error) return markError(id, outcome.error);
        const row = byId.get(id);
        fillHttp(row, outcome.measured);
        if (id === '1') {
          scenarioOneRps = row.rps;
          row.result = verdict(row.httpRatio >= 0.5 && row.p99 <= 5);
        } else if (id === '1b' || id === '2b') {
          row.result = 'reported (no context text repeats)';
        } else if (id === '2' || id === '3a') {
          row.result = verdict(row.httpRatio >= 0.5);
        } else if (id === '3b') {
          row.result = `${verdict(row.httpRatio >= 0.5)} (${fmtInt(outcome.measured.responseBytes)} bytes)`;
        } else if (id === '4') {
          row.result = `reported (${outcome.extra?.flags ?? '?'} flags evaluated)`;
        }
      },
      log,
    );
    const mem = vexil.memory();
    notes.push(`Server of scenarios 1-4: peak RSS ${fmtInt(mem.peakRss / 2 ** 20)} MB (1,251 flags in 4 projects, after all the load).`);
  });
}

async function runEngine() {
  if (!wanted('5')) return;
  log('Scenario 5 (engine, in process)');
  const row = byId.get('5');
  try {
    const r = await engineScenario();
    row.rps = r.evalsPerCpuSecond;
    row.result = verdict(r.evalsPerCpuSecond >= 2_000_000);
    row.detail = [
      `evaluations per second of CPU time (process.cpuUsage, median of ${r.rounds} rounds of 1 s); per second of wall time: ${fmtInt(r.evalsPerWallSecond)}`,
      `1,000 users, every rule fails on its third criterion; resolved_by ${JSON.stringify(r.resolved)}`,
      `with a 34/33/33 split on both targets' base: ${fmtInt(r.splitEvalsPerCpuSecond)} evaluations per second of CPU time (the split's cost: ${fmtInt(1e9 / r.splitEvalsPerCpuSecond - 1e9 / r.evalsPerCpuSecond)} ns each); served ${JSON.stringify(r.splitServed)}`,
    ];
  } catch (error) {
    if (error instanceof NotAvailable) markUnavailable('5', error.message);
    else markError('5', error);
  }
}

/** Scenario 6's variants: one per database, each on a server of its own. */
const writeVariants = [
  { id: '6s', dialect: 'sqlite', name: 'SQLite' },
  { id: '6m', dialect: 'mysql', name: 'MariaDB' },
  { id: '6p', dialect: 'postgres', name: 'PostgreSQL' },
  { id: '6g', dialect: 'galera', name: "Galera, 3 nodes of the run's own, Vexil given every node" },
];

async function writeVariantAvailable(dialect) {
  if (dialect === 'mysql' && !(await mysqlReachable()))
    throw new NotAvailable(`no MySQL/MariaDB server at ${new URL(mysqlServerUrl()).host}`);
  if (dialect === 'postgres' && !(await postgresReachable()))
    throw new NotAvailable(`no PostgreSQL server at ${new URL(postgresServerUrl()).host}`);
}

async function runWrites() {
  const variants = writeVariants.filter((v) => wantedVariant(v.id));
  for (const { id, dialect: d, name } of variants) {
    log(`Scenario 6 (write cycle, ${name})`);
    const row = byId.get(id);
    try {
      await writeVariantAvailable(d);
      await withServer(`writes-${d}`, { dialect: d }, async (vexil) => {
        const r = await writeCycle(vexil);
        row.rps = r.rps;
        row.p50 = r.overall.p50;
        row.p99 = r.overall.p99;
        row.result = d === 'galera' ? 'reported' : verdict(r.overall.p99 <= 20);
        row.detail = [
          `${fmtInt(r.cyclesPerSecond)} cycles/s (5 requests each); server CPU ${Math.round(100 * r.serverCpuShare)} % of a core`,
          `p50/p99 ms per step: ${Object.entries(r.steps)
            .map(([s, v]) => `${s} ${fmtMs(v.p50)}/${fmtMs(v.p99)}`)
            .join(', ')}; max ${fmtMs(r.overall.max)}`,
        ];
      });
    } catch (error) {
      if (error instanceof NotAvailable) markUnavailable(id, error.message);
      else markError(id, error);
    }
  }
  comparePostgresWrites();
}

/** PostgreSQL's write-cycle p99 as a ratio to SQLite's, both measured in this run. */
function comparePostgresWrites() {
  const sqlite = byId.get('6s');
  const postgres = byId.get('6p');
  if (postgres.p99 === undefined) return;
  if (sqlite.p99 === undefined) {
    postgres.detail.push('ratio to SQLite: not measured (SQLite not run in this run)');
    return;
  }
  const ratio = postgres.p99 / sqlite.p99;
  postgres.detail.push(`p99 ${ratio.toFixed(2)}x SQLite's (${fmtMs(postgres.p99)} vs ${fmtMs(sqlite.p99)} ms, same run)`);
  postgres.result = `${verdict(postgres.p99 <= 20 && ratio <= 1.5)} (${ratio.toFixed(2)}x SQLite's p99)`;
}

async function runAudit() {
  if (!wanted('7')) return;
  log(`Scenario 7 (audit log pages, ${dbName(dialect)})`);
  try {
    await withServer('audit', { dialect }, async (vexil) => {
      const r = await auditScenario(vexil, log);
      const a = byId.get('7a');
      const b = byId.get('7b');
      fillHttp(a, r.page1);
      fillHttp(b, r.deep);
      a.result = verdict(a.p99 <= 10);
      const within = b.p99 <= 2 * Math.max(a.p99, 1) && b.rps >= a.rps / 2;
      b.result = verdict(b.p99 <= 10 && within);
      a.detail.push(
        `one connection: p50/p99 ${fmtMs(r.single.page1.p50)}/${fmtMs(r.single.page1.p99)} ms, ${fmtInt(r.single.page1.rps)} req/s`,
      );
      b.detail.push(
        `one connection: p50/p99 ${fmtMs(r.single.deep.p50)}/${fmtMs(r.single.deep.p99)} ms, ${fmtInt(r.single.deep.rps)} req/s`,
      );
      b.detail.push(
        `deep page vs page 1: req/s ${(b.rps / a.rps).toFixed(2)}x, p99 ${fmtMs(b.p99)} vs ${fmtMs(a.p99)} ms; cursor reached through ${r.pages} API pages of 100 in ${r.walkSeconds.toFixed(1)} s`,
      );
    });
  } catch (error) {
    if (error instanceof NotAvailable) markUnavailable('7', error.message);
    else markError('7', error);
  }
}

async function runScale() {
  if (!wanted('8')) return;
  log(`Scenario 8 (scale, ${dbName(dialect)})`);
  try {
    await withServer('scale', { dialect }, async (vexil) => {
      const r = await scaleScenario(vexil, log);
      const a = byId.get('8a');
      a.rps = r.load.rps;
      a.p50 = r.load.p50;
      a.p99 = r.load.p99;
      const base = scenarioOneRps;
      if (base) {
        a.koaRatio = undefined;
        a.result = verdict(a.rps >= 0.9 * base);
        a.detail = [
          `${((a.rps / base - 1) * 100).toFixed(1)} % vs scenario 1 (${fmtInt(base)} req/s); server CPU ${fmtInt(r.load.serverCpuUsPerReq)} µs/request`,
        ];
      } else {
        a.result = 'reported (scenario 1 not measured in this run)';
      }
      const b = byId.get('8b');
      b.value = `${fmtInt(r.end.peakRss / 2 ** 20)} MB`;
      b.result = verdict(r.end.peakRss <= 250 * 2 ** 20);
      b.detail = [
        `VmHWM ${fmtInt(r.end.peakRss / 2 ** 20)} MB at the end; after loading the 3 environments: VmHWM ${fmtInt(r.afterLoad.peakRss / 2 ** 20)} MB, VmRSS ${fmtInt(r.afterLoad.rss / 2 ** 20)} MB (loaded ${r.loadedAfter.toFixed(1)} s after the revision bump)`,
      ];
      const c = byId.get('8c');
      const visible = r.visibility.map((s) => s.afterPublishMs).sort((x, y) => x - y);
      const med = visible[Math.floor(visible.length / 2)];
      c.value = `${fmtMs(med)} ms median, ${fmtMs(visible[visible.length - 1])} ms max`;
      c.result = verdict(visible[visible.length - 1] <= 200);
      c.detail = [
        `${visible.length} changes (draft, value, publish through the management API); time from the publish response until GET /v1/flags/{key} serves the new value: ${visible.map((v) => fmtMs(v)).join(', ')} ms`,
        r.cost
          ? `in-process rebuild of the ${fmtInt(settings.scaleFlags + 1)}-flag environment after one change: ${r.cost.incrementalMs === undefined ? 'not measured' : `${fmtMs(r.cost.incrementalMs)} ms (the changed flag reloaded, the rest shared)`}; full reload (first load, or a segment change): load from the database ${fmtMs(r.cost.loadMs)} ms + compile ${fmtMs(r.cost.compileMs)} ms (medians of 5)`
          : 'in-process rebuild timing: not available (no loadEnvironmentConfig/buildEnvironmentSnapshot in dist)',
      ];
    });
  } catch (error) {
    if (error instanceof NotAvailable) markUnavailable('8', error.message);
    else markError('8', error);
  }
}

async function runEventLoop() {
  if (!wanted('9')) return;
  log(`Scenario 9 (event-loop delay under load with changes, ${dbName(dialect)})`);
  try {
    await withServer('event-loop', { dialect }, async (vexil) => {
      const setup = await prepareEventLoop(vexil);
      const delayOf = (r) =>
        `event-loop delay (lateness of monitorEventLoopDelay's 10 ms ticks over the load) p99 ${fmtMs(r.delay.p99 * 1000)} ms, mean ${fmtMs(r.delay.mean * 1000)} ms, max ${fmtMs(r.delay.max * 1000)} ms (raw readings, interval included: p99 ${fmtMs(r.delay.raw.p99 * 1000)} ms, max ${fmtMs(r.delay.raw.max * 1000)} ms)`;
      const changesOf = (r) =>
        `${r.changesPerSecond.toFixed(1)} changes/s applied (publishes of another flag of the environment; ${r.failures} failed) while serving ${fmtInt(r.load.rps)} req/s`;
      const floorOf = (r) =>
        `the floor: bare node:http answering the same bytes under the same load (no changes) serves ${fmtInt(r.floor.load.rps)} req/s with an event-loop delay p99 of ${fmtMs(r.floor.delay.p99 * 1000)} ms (mean ${fmtMs(r.floor.delay.mean * 1000)} ms, max ${fmtMs(r.floor.delay.max * 1000)} ms), request p99 ${fmtMs(r.floor.load.p99)} ms`;
      for (const id of ['9', '9s']) {
        const row = byId.get(id);
        const r = await eventLoopScenario(setup, { rate: id === '9' ? EVENT_LOOP_RATE : undefined });
        row.rps = r.load.rps;
        row.p50 = r.load.p50;
        row.p99 = r.load.p99;
        row.detail = [delayOf(r), changesOf(r), floorOf(r)];
        const figures = `event-loop delay p99 ${fmtMs(r.delay.p99 * 1000)} ms (floor ${fmtMs(r.floor.delay.p99 * 1000)} ms)`;
        row.result = id === '9' ? `${verdict(r.delay.p99 * 1000 <= 5)}: ${figures}` : `reported: ${figures}`;
      }
    });
  } catch (error) {
    for (const id of ['9', '9s']) {
      if (error instanceof NotAvailable) markUnavailable(id, error.message);
      else markError(id, error);
    }
  }
}

function runSdk() {
  const script = path.join(BENCH_DIR, 'sdk', 'sdk.bench.mjs');
  if (process.env.BENCH_SKIP_SDK === '1' || (only && !only.has('sdk')) || !fs.existsSync(script)) return Promise.resolve(undefined);
  log('SDK benchmark (bench/sdk/sdk.bench.mjs)');
  const env = { ...process.env };
  if (!env.BENCH_SECONDS && settings.duration < 10) env.BENCH_SECONDS = '1';
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) =>
      resolve(code === 0 ? out.trim() : `not available: the SDK benchmark exited with ${code}\n\n${(err || out).trim().slice(-1500)}`),
    );
  });
}

// ---- output ---------------------------------------------------------------------------------------
function table() {
  const header = [
    '#',
    'Scenario',
    'DB',
    'req/s',
    'p50 ms',
    'p99 ms',
    'node:http req/s',
    'koa req/s',
    'vs node:http',
    'vs koa',
    'Target',
    'Result',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i >= 3 && i <= 9 ? '---:' : '---')).join('|')}|`];
  for (const r of rows) {
    const rps = r.value ?? fmtInt(r.rps);
    lines.push(
      `| ${[
        r.id,
        r.scenario,
        r.db,
        rps,
        fmtMs(r.p50),
        fmtMs(r.p99),
        fmtInt(r.httpRps),
        fmtInt(r.koaRps),
        r.httpRatio === undefined ? '–' : r.httpRatio.toFixed(2),
        r.koaRatio === undefined ? '–' : `${Math.round(100 * r.koaRatio)} %`,
        r.target,
        (r.result ?? 'not run').replace(/\|/g, '\\|'),
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

function details() {
  const out = [];
  for (const r of rows) {
    if (!r.detail?.length) continue;
    out.push(`- **${r.id}**: ${r.detail.join('; ')}`);
  }
  return out.join('\n');
}

async function main() {
  if (!fs.existsSync(path.join(DIST, 'src', 'main.js'))) {
    console.error('dist/ is missing: run `make build` (make bench does) first.');
    process.exit(1);
  }
  const m = machine();
  const started = Date.now();
  log(
    `Vexil benchmarks: ${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.duration} s measured per run; main database ${dbName(dialect)}`,
  );
  await runEvaluation();
  await runEngine();
  await runWrites();
  await runAudit();
  await runScale();
  await runEventLoop();
  const sdk = await runSdk();
  m.loadEnd = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  const minutes = ((Date.now() - started) / 60000).toFixed(1);

  const md = [
    '# Vexil benchmark results',
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB; Node ${m.node}; ${m.os}. Date: ${m.date}${m.commit ? `; commit ${m.commit}` : ''}.`,
    `Load average (1/5/15 min) at start: ${m.loadStart}; at end: ${m.loadEnd}. Run took ${minutes} min.`,
    `Method: autocannon in a separate process, ${settings.connections} connections, ${settings.warmup} s warm-up then ${settings.duration} s measured per run; baselines (bare node:http, Koa + @koa/router) are separate processes returning the same status, headers and body bytes as Vexil's response, measured in the same run. Latencies from autocannon (1 ms resolution). Servers run from dist/ with LOG_LEVEL=${process.env.BENCH_LOG_LEVEL || 'info'} (the shipped default), rate limits off or raised, each on a fresh database. Produced by \`make bench\` (bench/run.mjs).`,
    '',
    table(),
    '',
    '## Details',
    '',
    details(),
    ...notes.map((n) => `- ${n}`),
    '',
  ];
  if (sdk) md.push('## SDK benchmark (bench/sdk/sdk.bench.mjs)', '', sdk, '');
  const text = md.join('\n');
  const resultsDir = path.join(BENCH_DIR, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  // A partial run (BENCH_ONLY) does not replace the full results.
  const name = only ? 'partial' : 'latest';
  fs.writeFileSync(path.join(resultsDir, `${name}.md`), text);
  fs.writeFileSync(path.join(resultsDir, `${name}.json`), JSON.stringify({ machine: m, settings, rows, notes }, null, 2) + '\n');
  process.stdout.write(`\n${text}\n`);
  log(`written to bench/results/${name}.md`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`${signal}: stopping the processes started by the benchmark`);
    for (const child of running) child.kill('SIGKILL');
    removeTempFiles();
    const timer = setTimeout(() => process.exit(130), 5000);
    Promise.allSettled([...liveDatabases].map((d) => d.drop())).then(() => {
      clearTimeout(timer);
      process.exit(130);
    });
  });
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of running) child.kill('SIGKILL');
    removeTempFiles();
  });
