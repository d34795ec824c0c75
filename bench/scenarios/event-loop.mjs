/**
 * Scenario 9: the server's event-loop delay while it serves scenario 1 for
 * BENCH_EVENT_LOOP_SECONDS (60) and takes 5 changes a second through the management API (each a
 * publish of another flag of the same environment, alternating its value: draft, value,
 * publish). Two loads: 9 at a steady BENCH_EVENT_LOOP_RATE requests a second (5,000; autocannon,
 * 50 connections, paced), where a delay is a stall of the loop; 9s as fast as the server answers,
 * where the delay also holds the queue of ready requests each turn of the loop works through, so
 * it is reported beside its floor (bare node:http under the same load). The delay is Node's own
 * monitorEventLoopDelay histogram as /metrics exposes it (vexil_nodejs_eventloop_lag_p99_seconds);
 * reading /metrics resets it, so one read before the load and one after cover exactly the load.
 * That histogram records the time between two of its 10 ms timer ticks, not the lateness of the
 * second: an idle process reads about 10.1 ms at p50 and 11 ms at p99. The delay reported is the
 * lateness, the reading less the 10 ms interval (`stallOf`); the raw readings are kept beside it.
 */
import { Api } from '../lib/api.mjs';
import { runLoad } from '../lib/load.mjs';
import { startBaseline } from '../lib/server.mjs';
import { createFlag, publishTarget } from '../lib/setup.mjs';
import { sleep } from '../lib/util.mjs';
import { contextHeaders, SCENARIO_FLAG, setupScenarioOne } from './evaluation.mjs';

export const EVENT_LOOP_SECONDS = Number(process.env.BENCH_EVENT_LOOP_SECONDS || 60);
export const EVENT_LOOP_RATE = Number(process.env.BENCH_EVENT_LOOP_RATE || 5000);
const CHANGES_PER_SECOND = 5;

/** The histogram's timer interval (prom-client's default precision, and the floor's). */
const MONITOR_INTERVAL_SECONDS = 0.01;

/** A reading of the histogram as the lateness of the ticks: less the interval, never below 0; `raw` the reading. */
function stallOf(raw) {
  const late = (seconds) => Math.max(0, seconds - MONITOR_INTERVAL_SECONDS);
  return { p99: late(raw.p99), mean: late(raw.mean), max: late(raw.max), raw };
}

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

/** Sets up scenario 1's flag and a flag to change in a project of its own; returns what the loads need. */
export async function prepareEventLoop(vexil) {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  const { apiKey } = await setupScenarioOne(api, 'bench-el');
  const toggle = await createFlag(api, 'bench-el', 'toggle', 'boolean');
  await publishTarget(api, 'bench-el', toggle, 'production', { value: 'true' });
  return { vexil, api, apiKey, toggle };
}

/**
 * One load of scenario 1 with 5 changes a second, `rate` requests a second (undefined: as fast as
 * the server answers), then the same load on the floor.
 */
export async function eventLoopScenario({ vexil, api, apiKey, toggle }, { rate } = {}) {
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
    rate,
  });
  const seconds = (Date.now() - started) / 1000;
  const delay = stallOf(await lag(vexil.baseUrl));
  running = false;
  await writer;
  const floor = await bareDelay(vexil, apiKey, rate);
  return { load, delay, changesPerSecond: changes / seconds, failures, floor };
}

/**
 * The floor: bare node:http (bench/baselines/node-http.mjs) answering scenario 1's bytes under the
 * same load for as long, its own event-loop delay measured the same way (no changes: it has none).
 */
async function bareDelay(vexil, apiKey, rate) {
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
      rate,
    });
    return { load, delay: stallOf(await read()) };
  } finally {
    await bare.stop();
  }
}
