/**
 * Scenarios 1-4: the public evaluation API on one server (data set up through the management
 * API), each measured against the two baselines returning the same bytes.
 */
import { Api } from '../lib/api.mjs';
import { measureHttp } from '../lib/measure.mjs';
import { benchContext, createProject, environmentKey, manyFlags, ofrepContext, scenarioOneFlag, waitForPublic } from '../lib/setup.mjs';
import { NotAvailable } from '../lib/util.mjs';

export const SCENARIO_FLAG = 'checkout-redesign';
export const contextHeaders = { 'x-vexil-context': JSON.stringify(benchContext) };

/** Sets up the scenario-1 flag in a project of its own; returns { apiKey } or throws NotAvailable. */
export async function setupScenarioOne(api, project = 'bench-s1', env = 'production') {
  await createProject(api, project, [env]);
  const apiKey = await environmentKey(api, project, env, 'server');
  await scenarioOneFlag(api, project, env, SCENARIO_FLAG);
  return { apiKey };
}

export function scenarioOneRequest(apiKey) {
  return {
    method: 'GET',
    path: `/v1/flags/${SCENARIO_FLAG}`,
    headers: { 'x-vexil-api-key': apiKey, ...contextHeaders },
  };
}

/** Waits until the server's snapshot shows `count` flags for the key (settles the poller). */
async function settle(api, apiKey, count) {
  const res = await waitForPublic(
    api,
    apiKey,
    '/v1/payload',
    (r) => r.status === 200 && r.body?.data?.config?.flags?.length >= count,
    30_000,
  );
  if (res.status !== 200) throw new NotAvailable(`GET /v1/payload -> ${res.status}`);
  if ((res.body?.data?.config?.flags?.length ?? 0) < count)
    throw new NotAvailable(`payload shows ${res.body?.data?.config?.flags?.length} of ${count} flags`);
}

/**
 * Runs scenarios 1-4 on `vexil`. `report(id, outcome)` receives either
 * { measured: measureHttp result, extra } or { notAvailable: reason } per scenario id.
 */
export async function evaluationScenarios(vexil, report, log) {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  const guard = async (id, fn) => {
    try {
      await fn();
    } catch (error) {
      if (error instanceof NotAvailable) report(id, { notAvailable: error.message });
      else report(id, { error: error.stack ?? String(error) });
    }
  };

  // ---- set-up (all through the management API) -------------------------------------------
  const setups = {};
  const t0 = Date.now();
  await guard('1', async () => {
    setups[1] = await setupScenarioOne(api);
  });
  await guard('2', async () => {
    await createProject(api, 'bench-s2', ['production']);
    const apiKey = await environmentKey(api, 'bench-s2', 'production', 'server');
    await manyFlags(api, 'bench-s2', ['production'], 'list', 200);
    setups[2] = { apiKey };
  });
  await guard('3', async () => {
    await createProject(api, 'bench-s3', ['production']);
    const apiKey = await environmentKey(api, 'bench-s3', 'production', 'server');
    await manyFlags(api, 'bench-s3', ['production'], 'payload', 1000);
    setups[3] = { apiKey };
  });
  await guard('4', async () => {
    await createProject(api, 'bench-s4', ['production']);
    const apiKey = await environmentKey(api, 'bench-s4', 'production', 'server');
    await manyFlags(api, 'bench-s4', ['production'], 'ofrep', 50);
    setups[4] = { apiKey };
  });
  log(`  set-up through the management API: ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // ---- 1. GET /v1/flags/{key} --------------------------------------------------------------
  if (setups[1]) {
    await guard('1', async () => {
      const request = scenarioOneRequest(setups[1].apiKey);
      await waitForPublic(api, setups[1].apiKey, request.path, (r) => r.status === 200, 10_000, contextHeaders);
      const m = await measureHttp({ vexil, api, request, routePattern: '/v1/flags/:flagKey', log });
      report('1', { measured: m });
    });
    // 1b: the same request with a new context identifier every time, so no decoded context is
    // reused (the server keeps the contexts of header texts it has just seen).
    await guard('1b', async () => {
      const request = {
        ...scenarioOneRequest(setups[1].apiKey),
        varyHeader: { name: 'x-vexil-context', template: JSON.stringify({ ...benchContext, identifier: 'user-{n}' }) },
      };
      const m = await measureHttp({ vexil, api, request, routePattern: '/v1/flags/:flagKey', log });
      report('1b', { measured: m });
    });
  }

  // ---- 2. GET /v1/flags, 200 flags ---------------------------------------------------------
  if (setups[2]) {
    await guard('2', async () => {
      await settle(api, setups[2].apiKey, 200);
      const request = { method: 'GET', path: '/v1/flags', headers: { 'x-vexil-api-key': setups[2].apiKey, ...contextHeaders } };
      const m = await measureHttp({ vexil, api, request, routePattern: '/v1/flags', log });
      report('2', { measured: m });
    });
    // 2b: every flag for a new context each time, so no answer kept for a repeated context is
    // reused (the server keeps the evaluated list of a context it has just answered).
    await guard('2b', async () => {
      const request = {
        method: 'GET',
        path: '/v1/flags',
        headers: { 'x-vexil-api-key': setups[2].apiKey, ...contextHeaders },
        varyHeader: { name: 'x-vexil-context', template: JSON.stringify({ ...benchContext, identifier: 'user-{n}' }) },
      };
      const m = await measureHttp({ vexil, api, request, routePattern: '/v1/flags', log });
      report('2b', { measured: m });
    });
  }

  // ---- 3. GET /v1/payload: 304 and the 200 path for 1,000 flags -------------------------------
  if (setups[3]) {
    await guard('3a', async () => {
      await settle(api, setups[3].apiKey, 1000);
      const first = await api.request('GET', '/v1/payload', { apiKey: setups[3].apiKey });
      const etag = first.headers.get('etag');
      if (!etag) throw new NotAvailable('GET /v1/payload has no ETag');
      const request = {
        method: 'GET',
        path: '/v1/payload',
        headers: { 'x-vexil-api-key': setups[3].apiKey, 'if-none-match': etag },
      };
      const m = await measureHttp({ vexil, api, request, routePattern: '/v1/payload', expected: [304], log });
      report('3a', { measured: m });
    });
    await guard('3b', async () => {
      const request = { method: 'GET', path: '/v1/payload', headers: { 'x-vexil-api-key': setups[3].apiKey } };
      const m = await measureHttp({ vexil, api, request, routePattern: '/v1/payload', log });
      report('3b', { measured: m });
    });
  }

  // ---- 4. OFREP bulk evaluation, 50 flags ----------------------------------------------------
  if (setups[4]) {
    await guard('4', async () => {
      await settle(api, setups[4].apiKey, 50);
      const request = {
        method: 'POST',
        path: '/ofrep/v1/evaluate/flags',
        headers: { 'x-vexil-api-key': setups[4].apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ context: ofrepContext }),
      };
      const m = await measureHttp({ vexil, api, request, routePattern: '/ofrep/v1/evaluate/flags', log });
      const flags = JSON.parse((await api.request('POST', request.path, { headers: request.headers, rawBody: request.body })).text).flags;
      report('4', { measured: m, extra: { flags: flags?.length } });
    });
  }
  return setups;
}
