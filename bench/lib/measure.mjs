/**
 * One HTTP scenario measured against Vexil and against the two baselines (bare node:http and
 * Koa + @koa/router, each a separate process returning the same status, headers and body bytes
 * as Vexil's response to the scenario's request), with the same load in the same run.
 */
import { expectStatus } from './api.mjs';
import { runLoad } from './load.mjs';
import { startBaseline } from './server.mjs';
import { NotAvailable } from './util.mjs';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/**
 * request: { method, path, headers, body (string), varyHeader (see workers/autocannon.mjs) }; routePattern: the Koa route of the
 * operation (e.g. /v1/flags/:flagKey); expected: acceptable statuses of the preflight.
 */
export async function measureHttp({ vexil, api, request, routePattern, expected = [200], baselines = true, log = () => {} }) {
  const headers = request.headers ?? {};
  const pre = await expectStatus(api, `preflight`, request.method, request.path, { headers, rawBody: request.body }, expected);
  const bodyBytes = Buffer.from(pre.text ?? '');
  const responseHeaders = {};
  for (const [k, v] of pre.headers) if (!HOP_BY_HOP.has(k)) responseHeaders[k] = v;
  const load = (baseUrl, serverPid) =>
    runLoad({
      serverPid,
      url: baseUrl + request.path,
      method: request.method,
      headers,
      body: request.body,
      varyHeader: request.varyHeader,
    });

  log(`    vexil ${request.method} ${request.path.split('?')[0]} ...`);
  const v = await load(vexil.baseUrl, vexil.pid);
  checkStatuses(v, pre.status);
  const out = { vexil: v, status: pre.status, responseBytes: bodyBytes.length, responseHeaders };
  if (!baselines) return out;
  const route = { method: request.method, path: routePattern, status: pre.status, headers: responseHeaders, body: bodyBytes };
  for (const kind of ['node-http', 'koa-router']) {
    log(`    baseline ${kind} ...`);
    const b = await startBaseline(kind, route);
    try {
      out[kind] = await load(b.baseUrl, b.pid);
      checkStatuses(out[kind], pre.status);
    } finally {
      await b.stop();
    }
  }
  return out;
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
