/**
 * Scenario 9: the server's event-loop delay while it serves scenario 1 at full speed (autocannon,
 * 50 connections) for BENCH_EVENT_LOOP_SECONDS (60) and takes 5 changes a second through the
 * management API (each a publish of another flag of the same environment, alternating its value:
 * draft, value, publish). The delay is Node's own monitorEventLoopDelay histogram as /metrics
 * exposes it (vexil_nodejs_eventloop_lag_p99_seconds); reading /metrics resets it, so one read
 * before the load and one after cover exactly the load.
 */
import { Api } from '../lib/api.mjs';
import { runLoad } from '../lib/load.mjs';
import { startBaseline } from '../lib/server.mjs';
import { createFlag, publishTarget } from '../lib/setup.mjs';
import { sleep } from '../lib/util.mjs';
import { contextHeaders, SCENARIO_FLAG, setupScenarioOne } from './evaluation.mjs';

export const EVENT_LOOP_SECONDS = Number(process.env.BENCH_EVENT_LOOP_SECONDS || 60);
const CHANGES_PER_SECOND = 5;

async function lag(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const read = (name) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(' ')[1],
    );
  return {
    p99: read('vexil_nodejs_eventloop_lag_p99_seconds'),
    max: read('vexil_nodejs_eventloop_lag_max_seconds'),
    mean: read('vexil_nodejs_eventloop_lag_mean_seconds'),
  };
}

export async function eventLoopScenario(vexil) {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  const { apiKey } = await setupScenarioOne(api, 'bench-el');
  const toggle = await createFlag(api, 'bench-el', 'toggle', 'boolean');
  await publishTarget(api, 'bench-el', toggle, 'production', { value: 'true' });

  let running = true;
  let changes = 0;
  let failures = 0;
  const writer = (async () => {
    let next = Date.now();
    while (running) {
      next += 1000 / CHANGES_PER_SECOND;
      try {
        await publishTarget(api, 'bench-el', toggle, 'production', { value: changes % 2 === 0 ? 'false' : 'true' });
        changes += 1;
      } catch {
        failures += 1;
      }
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
      else next = Date.now();
    }
  })();

  await lag(vexil.baseUrl); // resets the histogram
  const started = Date.now();
  const load = await runLoad({
    serverPid: vexil.pid,
    url: `${vexil.baseUrl}/v1/flags/${SCENARIO_FLAG}`,
    headers: { 'x-vexil-api-key': apiKey, ...contextHeaders },
    duration: EVENT_LOOP_SECONDS,
    warmup: 0,
  });
  const seconds = (Date.now() - started) / 1000;
  const delay = await lag(vexil.baseUrl);
  running = false;
  await writer;
  const floor = await bareDelay(vexil, apiKey);
  return { load, delay, changesPerSecond: changes / seconds, failures, floor };
}

/**
 * The floor: bare node:http (bench/baselines/node-http.mjs) answering scenario 1's bytes under the
 * same load for as long, its own event-loop delay measured the same way (no changes: it has none).
 */
async function bareDelay(vexil, apiKey) {
  const headers = { 'x-vexil-api-key': apiKey, ...contextHeaders };
  const pre = await fetch(`${vexil.baseUrl}/v1/flags/${SCENARIO_FLAG}`, { headers });
  const body = Buffer.from(await pre.arrayBuffer());
  const responseHeaders = {};
  for (const [k, v] of pre.headers)
    if (!['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date'].includes(k)) responseHeaders[k] = v;
  const bare = await startBaseline('node-http', {
    method: 'GET',
    path: '/v1/flags/:flagKey',
    status: pre.status,
    headers: responseHeaders,
    body,
  });
  try {
    const read = async () => (await fetch(`${bare.baseUrl}/__lag`)).json();
    await read(); // resets the histogram
    const load = await runLoad({
      serverPid: bare.pid,
      url: `${bare.baseUrl}/v1/flags/${SCENARIO_FLAG}`,
      headers,
      duration: EVENT_LOOP_SECONDS,
      warmup: 0,
    });
    return { load, delay: await read() };
  } finally {
    await bare.stop();
  }
}
