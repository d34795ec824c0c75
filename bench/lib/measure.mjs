/**
 * One HTTP scenario measured against Vexil and against the two baselines (bare node:http and
 * Koa + @koa/router, each a separate process returning the same status, headers and body bytes
 * as Vexil's response to the scenario's request), with the same load in the same run.
 */
import { expectStatus } from './api.mjs';
import { runLoad } from './load.mjs';
import { startBaseline } from './server.mjs';
import { NotAvailable, settings } from './util.mjs';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/**
 * request: { method, path, headers, body (string), varyHeader (see workers/autocannon.mjs) }; routePattern: the Koa route of the
 * operation (e.g. /v1/flags/:flagKey); expected: acceptable statuses of the preflight.
 *
 * The servers take turns: BENCH_ROUNDS rounds (default 3), each a share of BENCH_DURATION per
 * server, in an order that rotates from round to round. A virtual machine's speed drifts by as
 * much as a factor of two within minutes; measured one after the other, Vexil and a baseline
 * could each meet a different machine. Each server's figures sum its rounds (req/s over its
 * whole measured time; p99 is its worst round's), and `rounds` keeps each round's req/s.
 */
export async function measureHttp({ vexil, api, request, routePattern, expected = [200], baselines = true, log = () => {} }) {
  const headers = request.headers ?? {};
  const pre = await expectStatus(api, `preflight`, request.method, request.path, { headers, rawBody: request.body }, expected);
  const bodyBytes = Buffer.from(pre.text ?? '');
  const responseHeaders = {};
  for (const [k, v] of pre.headers) if (!HOP_BY_HOP.has(k)) responseHeaders[k] = v;
  const out = { status: pre.status, responseBytes: bodyBytes.length, responseHeaders, rounds: [] };
  const servers = [{ name: 'vexil', baseUrl: vexil.baseUrl, pid: vexil.pid }];
  const started = [];
  try {
    if (baselines) {
      const route = { method: request.method, path: routePattern, status: pre.status, headers: responseHeaders, body: bodyBytes };
      for (const kind of ['node-http', 'koa-router']) {
        const b = await startBaseline(kind, route);
        started.push(b);
        servers.push({ name: kind, baseUrl: b.baseUrl, pid: b.pid });
      }
    }
    const rounds = Math.max(1, Math.round(settings.rounds));
    const share = settings.duration / rounds;
    const results = Object.fromEntries(servers.map((server) => [server.name, []]));
    for (let round = 0; round < rounds; round++) {
      const order = servers.map((_, i) => servers[(i + round) % servers.length]);
      for (const server of order) {
        log(`    round ${round + 1}/${rounds}: ${server.name} ${request.method} ${request.path.split('?')[0]} ...`);
        const result = await runLoad({
          serverPid: server.pid,
          url: server.baseUrl + request.path,
          method: request.method,
          headers,
          body: request.body,
          varyHeader: request.varyHeader,
          duration: share,
          // Each server is warmed once, before its first measured round.
          warmup: round === 0 ? settings.warmup : 0,
        });
        checkStatuses(result, pre.status);
        results[server.name].push(result);
      }
      out.rounds.push(Object.fromEntries(servers.map((server) => [server.name, results[server.name][round].rps])));
    }
    for (const server of servers) out[server.name] = combined(results[server.name]);
  } finally {
    for (const b of started) await b.stop();
  }
  return out;
}

/** One server's rounds as one run: totals over its measured time, the worst round's latencies. */
function combined(results) {
  const sum = (pick) => results.reduce((total, r) => total + pick(r), 0);
  const total = sum((r) => r.total);
  const duration = sum((r) => r.duration);
  const serverCpuMs = sum((r) => (r.serverCpuUsPerReq * r.total) / 1000);
  const statusCodes = {};
  for (const r of results) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const worst = (pick) => Math.max(...results.map(pick));
  const warnings = results.map((r) => r.warning).filter(Boolean);
  return {
    rps: total / duration,
    total,
    duration,
    p50: worst((r) => r.p50),
    p90: worst((r) => r.p90),
    p99: worst((r) => r.p99),
    avg: sum((r) => r.avg * r.total) / Math.max(total, 1),
    max: worst((r) => r.max),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    statusCodes,
    serverCpuUsPerReq: total > 0 ? (serverCpuMs * 1000) / total : NaN,
    serverCpuShare: serverCpuMs / (duration * 1000),
    bytesPerReq: results[0]?.bytesPerReq ?? 0,
    ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}),
  };
}

/** Every measured response must carry the preflight's status: a run of errors measures nothing. */
function checkStatuses(result, status) {
  const other = Object.entries(result.statusCodes).filter(([code]) => Number(code) !== status);
  const bad = other.reduce((sum, [, n]) => sum + n, 0);
  if (result.total === 0) throw new NotAvailable('no response during the measured run');
  if (bad > result.total * 0.001) {
    throw new NotAvailable(`${bad} of ${result.total} responses had another status than ${status}: ${JSON.stringify(result.statusCodes)}`);
  }
  if (result.errors > 0 || result.timeouts > 0) result.warning = `${result.errors} errors, ${result.timeouts} timeouts`;
}
