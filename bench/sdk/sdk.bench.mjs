#!/usr/bin/env node
/**
 * SDK evaluations per second, side by side in one process:
 * - @vexil/sdk server client (local evaluation with the server's engine) on the scenario-1 flag
 *   of the performance issue: a boolean flag with 5 rules of 3 criteria each and a 50 % rollout;
 * - unleash-client (npm) `isEnabled` on the equivalent feature: 5 strategies of 3 constraints
 *   each and a 50 % flexibleRollout (userId stickiness), constructed offline from a bootstrap.
 *
 * The flag and the users are those of bench/workers/engine.mjs (scenario 5 measures the engine
 * alone on them). Both are measured on the worst case for the rules: every rule fails on its
 * third criterion (constraint), so all 15 are evaluated before the rollout decides, for 1000
 * different users. Contenders run interleaved in rounds, so a busy machine slows them alike;
 * rates are per second of wall time and per second of this process's CPU time.
 * Neither records usage metrics here (Vexil offline mode, unleash `disableMetrics`); a third row
 * shows Vexil with its usage counting on.
 *
 * Run: make build && node bench/sdk/sdk.bench.mjs   (BENCH_SECONDS=3 per contender by default)
 * Target (issue 7): Vexil at least 2x unleash-client's rate.
 */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { COUNTRIES, FLAG, USERS, scenarioConfig, scenarioContexts } from '../lib/scenario-flag.mjs';

const sdkEntry = fileURLToPath(new URL('../../sdk/dist/sdk/src/index.js', import.meta.url));
if (!existsSync(sdkEntry)) {
  console.error('The SDK is not built: run `make build` (or `npx tsc -p sdk/tsconfig.json`) first.');
  process.exit(1);
}
const { VexilServerClient } = await import(sdkEntry);
const unleashModule = await import('unleash-client');
const { Unleash, InMemStorageProvider } = unleashModule.default ?? unleashModule;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = 5;

// ---- Vexil: the scenario-1 flag --------------------------------------------------------------
const vexilConfig = scenarioConfig;
const vexilContexts = scenarioContexts;

// ---- unleash-client: the equivalent feature ---------------------------------------------------
const unleashFeature = {
  name: FLAG,
  enabled: true,
  type: 'release',
  project: 'default',
  stale: false,
  variants: [],
  strategies: [
    ...Array.from({ length: 5 }, (_, i) => ({
      name: 'default',
      parameters: {},
      constraints: [
        { contextName: 'country', operator: 'IN', values: COUNTRIES, inverted: false, caseInsensitive: false },
        { contextName: 'email', operator: 'STR_ENDS_WITH', values: ['@example.com'], inverted: false, caseInsensitive: false },
        { contextName: 'seats', operator: 'NUM_GTE', value: String((i + 1) * 100), values: [], inverted: false, caseInsensitive: false },
      ],
    })),
    { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId: FLAG }, constraints: [] },
  ],
};

const unleashContexts = Array.from({ length: USERS }, (_, i) => ({
  userId: `user-${i}`,
  properties: { country: COUNTRIES[i % COUNTRIES.length], email: `user-${i}@example.com`, seats: '50' },
}));

// every request unleash-client might make goes here and is counted (there must be none)
let unleashRequests = 0;
const sink = createServer((req, res) => {
  unleashRequests++;
  res.writeHead(503).end();
});
await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkUrl = `http://127.0.0.1:${sink.address().port}/api/`;

const unleash = new Unleash({
  appName: 'vexil-sdk-bench',
  url: sinkUrl,
  refreshInterval: 0, // no polling
  disableMetrics: true, // no metrics or registration requests
  storageProvider: new InMemStorageProvider(), // no backup file
  bootstrap: { data: [unleashFeature] },
  skipInstanceCountWarning: true,
});
unleash.on('error', (e) => console.error('unleash error:', e.message));
await new Promise((resolve) => (unleash.isSynchronized?.() || unleash.ready ? resolve() : unleash.once('ready', resolve)));

// ---- Vexil clients ----------------------------------------------------------------------------
const vexil = new VexilServerClient({ offline: true, bootstrap: vexilConfig, logger: null });
// the same with usage counting: a client that never reaches a service (sink answers 503) and reports hourly
const vexilCounting = new VexilServerClient({
  baseUrl: `http://127.0.0.1:${sink.address().port}`,
  apiKey: 'srv_bench',
  bootstrap: vexilConfig,
  stream: false,
  pollIntervalMs: 3_600_000,
  usage: { intervalMs: 3_600_000 },
  logger: null,
});
await vexilCounting.ready();
unleashRequests = 0;

// ---- sanity: both serve about half of the users, and Vexil's rules fail as intended -------------
const vexilOn = vexilContexts.filter((c) => vexil.boolean(FLAG, c, false)).length;
const unleashOn = unleashContexts.filter((c) => unleash.isEnabled(FLAG, c)).length;
const resolutions = new Set(vexilContexts.map((c) => vexil.booleanDetails(FLAG, c, false).resolvedBy));
if (vexilOn < 350 || vexilOn > 650 || unleashOn < 350 || unleashOn > 650 || resolutions.has('rule')) {
  console.error('Sanity check failed', { vexilOn, unleashOn, resolutions: [...resolutions] });
  process.exit(1);
}

// ---- measurement ------------------------------------------------------------------------------
let blackhole = 0;
const contenders = [
  {
    name: '@vexil/sdk client.boolean()',
    run(n) {
      let on = 0;
      for (let i = 0; i < n; i++) if (vexil.boolean(FLAG, vexilContexts[i % USERS], false)) on++;
      return on;
    },
  },
  {
    name: '@vexil/sdk client.boolean(), usage counting on',
    run(n) {
      let on = 0;
      for (let i = 0; i < n; i++) if (vexilCounting.boolean(FLAG, vexilContexts[i % USERS], false)) on++;
      return on;
    },
  },
  {
    name: 'unleash-client isEnabled()',
    run(n) {
      let on = 0;
      for (let i = 0; i < n; i++) if (unleash.isEnabled(FLAG, unleashContexts[i % USERS])) on++;
      return on;
    },
  },
];

/** Evaluations per second (of wall time and of this process's CPU time) over about `ms` milliseconds. */
function measure(contender, ms) {
  const batch = 20_000;
  let count = 0;
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(ms * 1e6));
  let now = start;
  while (now < deadline) {
    blackhole += contender.run(batch);
    count += batch;
    now = process.hrtime.bigint();
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall: count / (Number(now - start) / 1e9), cpu: count / ((cpu.user + cpu.system) / 1e6) };
}

for (const c of contenders) measure(c, 500); // warm-up (JIT)
const rates = new Map(contenders.map((c) => [c.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const c of contenders) rates.get(c.name).push(measure(c, (SECONDS * 1000) / ROUNDS));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = new Map([...rates].map(([name, xs]) => [name, { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) }]));

const vexilRate = result.get(contenders[0].name).wall;
const unleashRate = result.get(contenders[2].name).wall;
const fmt = (n) => Math.round(n).toLocaleString('en-US');
console.log(`SDK evaluations per second, scenario-1 flag (5 rules x 3 criteria + 50 % rollout), ${USERS} users`);
console.log(
  `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}, one core; median of ${ROUNDS} rounds, ${SECONDS} s per contender`,
);
console.log('');
console.log('| Contender | evaluations/s (wall) | evaluations/s (CPU) | vs unleash-client |');
console.log('|---|---:|---:|---:|');
for (const c of contenders) {
  const rate = result.get(c.name);
  console.log(`| ${c.name} | ${fmt(rate.wall)} | ${fmt(rate.cpu)} | ${(rate.wall / unleashRate).toFixed(2)}x |`);
}
console.log('');
console.log(
  `Ratio @vexil/sdk / unleash-client: ${(vexilRate / unleashRate).toFixed(2)}x (target: at least 2x) -> ${vexilRate >= 2 * unleashRate ? 'met' : 'NOT met'}`,
);
console.log(
  `Sanity: ${vexilOn}/${USERS} users on with Vexil, ${unleashOn}/${USERS} with unleash-client; requests made by unleash-client: ${unleashRequests}`,
);
if (blackhole === -1) console.log('');

await vexilCounting.close();
await vexil.close();
unleash.destroy();
sink.close();
