/**
 * The public reads with the most callers, on one server started with the shipped defaults
 * (`make start`'s settings: LOG_LEVEL info, VEXIL_PUBLIC_AUDIT=every) and again with
 * LOG_LEVEL=warn: req/s, p99 and the server's CPU time per request (the steadier figure on a
 * shared machine). `node bench/public-reads.mjs` (after `make build`); BENCH_DIST runs another
 * build (an earlier commit's, for a before and after). Results: bench/results/public-reads.md.
 *
 * Reads: GET /v1/flags (200 flags, server key, context: the reference), GET /v1/payload with a
 * context (client key, 200 flags), the mobile payload (mobile key, the same context), OFREP
 * single (one flag) and bulk (50 flags, client key), each with one context asked for again (what
 * an application does) and, for the client payload, a new context per request. BENCH_READS (a
 * comma list of the ids below) measures some only; BENCH_DEFAULTS_ONLY=1 skips the second column.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Api } from './lib/api.mjs';
import { measureHttp } from './lib/measure.mjs';
import { benchContext, createProject, environmentKey, manyFlags, ofrepContext, scenarioOneFlag, waitForPublic } from './lib/setup.mjs';
import { startVexil } from './lib/server.mjs';
import { BENCH_DIR, DIST, settings } from './lib/util.mjs';

const context = JSON.stringify(benchContext);
const newContext = JSON.stringify({ ...benchContext, identifier: 'user-{n}' });

async function setUp(vexil) {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  await createProject(api, 'reads', ['production']);
  const keys = {};
  for (const kind of ['server', 'client', 'mobile']) keys[kind] = await environmentKey(api, 'reads', 'production', kind);
  await manyFlags(api, 'reads', ['production'], 'list', 199);
  await scenarioOneFlag(api, 'reads', 'production', 'checkout-redesign');
  await createProject(api, 'ofrep', ['production']);
  const ofrepKey = await environmentKey(api, 'ofrep', 'production', 'client');
  await manyFlags(api, 'ofrep', ['production'], 'ofrep', 50);
  await waitForPublic(api, keys.server, '/v1/payload', (r) => r.status === 200 && r.body?.data?.config?.flags?.length >= 200, 60_000);
  await waitForPublic(api, ofrepKey, '/v1/payload', (r) => r.status === 200 && r.body?.data?.flags?.length >= 50, 60_000);
  const ofrepJson = { 'x-api-key': ofrepKey, 'content-type': 'application/json' };
  const serverPayload = await api.request('GET', '/v1/payload', { apiKey: keys.server });
  return [
    {
      id: 'flag',
      what: 'GET /v1/flags/{key}, 5 rules x 3 criteria, 50 % rollout, one context',
      headers: { 'x-vexil-api-key': keys.server, 'x-vexil-context': context },
      path: '/v1/flags/checkout-redesign',
      route: '/v1/flags/:flagKey',
    },
    {
      id: 'flags',
      what: 'GET /v1/flags, 200 flags, server key, one context',
      headers: { 'x-vexil-api-key': keys.server, 'x-vexil-context': context },
      path: '/v1/flags',
    },
    {
      id: 'payload-server',
      what: 'GET /v1/payload, server key, 200 flags',
      headers: { 'x-vexil-api-key': keys.server },
      path: '/v1/payload',
    },
    {
      id: 'payload-304',
      what: 'GET /v1/payload, server key, If-None-Match: 304',
      headers: { 'x-vexil-api-key': keys.server, 'if-none-match': serverPayload.headers.get('etag') },
      path: '/v1/payload',
      expected: [304],
    },
    {
      id: 'payload-client',
      what: 'GET /v1/payload, client key, 200 flags, one context',
      headers: { 'x-vexil-api-key': keys.client, 'x-vexil-context': context },
      path: '/v1/payload',
    },
    {
      id: 'payload-client-new',
      what: 'the same, a new context each request',
      headers: { 'x-vexil-api-key': keys.client },
      varyHeader: { name: 'x-vexil-context', template: newContext },
      path: '/v1/payload',
    },
    {
      id: 'payload-mobile',
      what: 'GET /v1/payload, mobile key, 200 flags, one context',
      headers: { 'x-vexil-api-key': keys.mobile, 'x-vexil-context': context },
      path: '/v1/payload',
    },
    {
      id: 'ofrep-single',
      what: 'POST /ofrep/v1/evaluate/flags/{key}, one context',
      method: 'POST',
      headers: ofrepJson,
      path: '/ofrep/v1/evaluate/flags/ofrep-00007',
      route: '/ofrep/v1/evaluate/flags/:key',
      body: JSON.stringify({ context: ofrepContext }),
    },
    {
      id: 'ofrep-bulk',
      what: 'POST /ofrep/v1/evaluate/flags, 50 flags, client key, one context',
      method: 'POST',
      headers: ofrepJson,
      path: '/ofrep/v1/evaluate/flags',
      body: JSON.stringify({ context: ofrepContext }),
    },
  ];
}

async function measure(env, label) {
  const vexil = await startVexil({ label, env });
  try {
    const only = process.env.BENCH_READS?.split(',');
    const reads = (await setUp(vexil)).filter((read) => !only || only.includes(read.id));
    const out = {};
    const api = new Api(vexil.baseUrl, vexil.ownerToken);
    for (const read of reads) {
      const request = {
        method: read.method ?? 'GET',
        path: read.path,
        headers: read.headers,
        body: read.body,
        varyHeader: read.varyHeader,
      };
      const m = await measureHttp({ vexil, api, request, routePattern: read.route ?? read.path, expected: read.expected ?? [200] });
      const v = m.vexil;
      const bare = m['node-http'];
      const ok = v.errors === 0 && v.timeouts === 0;
      out[read.id] = { what: read.what, rps: v.rps, p99: v.p99, cpuUs: v.serverCpuUsPerReq, ratio: v.rps / bare.rps, ok };
      process.stderr.write(
        `${label} ${read.id}: ${Math.round(v.rps)} req/s (node:http ${Math.round(bare.rps)}, ratio ${(v.rps / bare.rps).toFixed(2)}), p99 ${v.p99} ms, ${v.serverCpuUsPerReq.toFixed(1)} µs CPU/request\n`,
      );
    }
    out.peakRssMb = vexil.memory().peakRss / 1024 / 1024;
    return out;
  } finally {
    await vexil.stop();
  }
}

const defaults = await measure({ LOG_LEVEL: 'info', VEXIL_PUBLIC_AUDIT: 'every' }, 'reads-defaults');
const warn =
  process.env.BENCH_DEFAULTS_ONLY === '1' ? defaults : await measure({ LOG_LEVEL: 'warn', VEXIL_PUBLIC_AUDIT: 'every' }, 'reads-warn');
const build = path.relative(process.cwd(), DIST) || 'dist';
const lines = [
  `Build: ${build}; ${settings.connections} connections, ${settings.warmup} s warm-up, ${settings.duration} s measured per read.`,
  '',
  'Ratio: req/s over bare node:http answering the same bytes, measured in turns in the same run (lib/measure.mjs).',
  '',
  '| Read | defaults req/s | ratio | p99 ms | CPU µs/req | LOG_LEVEL=warn req/s | ratio | p99 ms | CPU µs/req |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const id of Object.keys(defaults)) {
  if (id === 'peakRssMb') continue;
  const d = defaults[id];
  const w = warn[id];
  const cell = (m) => `${Math.round(m.rps)}${m.ok ? '' : ' (errors)'} | ${m.ratio.toFixed(2)} | ${m.p99} | ${m.cpuUs.toFixed(1)}`;
  lines.push(`| ${d.what} | ${cell(d)} | ${cell(w)} |`);
}
lines.push(
  '',
  `Peak RSS of the server: ${defaults.peakRssMb.toFixed(0)} MB with the defaults, ${warn.peakRssMb.toFixed(0)} MB with LOG_LEVEL=warn.`,
);
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
fs.mkdirSync(path.join(BENCH_DIR, 'results'), { recursive: true });
fs.writeFileSync(path.join(BENCH_DIR, 'results', `public-reads-${process.env.BENCH_LABEL ?? 'latest'}.md`), text);
