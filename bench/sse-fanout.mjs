/**
 * GET /v1/stream with 1,000 connected clients (server key, the shipped defaults): a change is
 * published through the management API, and each client's time from the change being sent until
 * its stream carries the new ETag is measured; reported: p50, p99 and the last arrival, per
 * change (BENCH_SSE_CHANGES, 5). The clients run in this process (one socket each), the server in
 * its own. `node bench/sse-fanout.mjs` after `make build`; results: bench/results/sse-fanout.md.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Api } from './lib/api.mjs';
import { createFlag, createProject, envPath, environmentKey, publishTarget } from './lib/setup.mjs';
import { startVexil } from './lib/server.mjs';
import { BENCH_DIR } from './lib/util.mjs';

const CLIENTS = Number(process.env.BENCH_SSE_CLIENTS || 1000);
const CHANGES = Number(process.env.BENCH_SSE_CHANGES || 5);

/** Opens a stream; `onEtag(etag, at)` for each etag event. */
function openStream(url, key, agent, onEtag) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { 'x-vexil-api-key': key } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = performance.now();
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split('\n');
          if (lines[0] === 'event: etag' && lines[1]?.startsWith('data: ')) onEtag(JSON.parse(lines[1].slice(6)).etag, at);
        }
      });
      resolve(req);
    });
    req.on('error', reject);
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const vexil = await startVexil({ label: 'sse-fanout', env: { LOG_LEVEL: 'info' } });
const rows = [];
try {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  await createProject(api, 'sse', ['production']);
  const key = await environmentKey(api, 'sse', 'production', 'server');
  const flag = await createFlag(api, 'sse', 'switch', 'boolean');
  await publishTarget(api, 'sse', flag, 'production', { value: 'false' });
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS + 10 });
  const latest = new Array(CLIENTS).fill(undefined);
  const latestAt = new Array(CLIENTS).fill(0);
  const arrivals = new Array(CLIENTS).fill(undefined);
  let expected;
  const streams = [];
  for (let i = 0; i < CLIENTS; i++) {
    streams.push(
      await openStream(`${vexil.baseUrl}/v1/stream`, key, agent, (etag, at) => {
        latest[i] = etag;
        latestAt[i] = at;
        if (expected !== undefined && etag === expected.etag && arrivals[i] === undefined) arrivals[i] = at - expected.sentAt;
      }),
    );
  }
  // Every client holds the current ETag before the first change.
  while (latest.some((etag) => etag === undefined)) await new Promise((r) => setTimeout(r, 50));
  for (let change = 0; change < CHANGES; change++) {
    arrivals.fill(undefined);
    // A draft with the other value, then its publish: the change timed is the publish alone.
    const base = envPath('sse', flag.key, 'production');
    const draft = (await api.mgmt('POST', `${base}/targets`)).data;
    await api.mgmt('PUT', `${base}/targets/${draft.ulid}`, { value_ulid: flag.values.get(change % 2 === 0 ? 'true' : 'false') });
    const sentAt = performance.now();
    expected = { etag: undefined, sentAt };
    await api.mgmt('PUT', `${base}/targets/${draft.ulid}/publish`, {});
    const payload = await api.request('GET', '/v1/payload', { apiKey: key });
    expected.etag = payload.headers.get('etag');
    // Events that arrived before the ETag was known to this process: timed by their arrival.
    for (let i = 0; i < CLIENTS; i++) if (latest[i] === expected.etag && arrivals[i] === undefined) arrivals[i] = latestAt[i] - sentAt;
    const deadline = Date.now() + 10_000;
    while (arrivals.some((a) => a === undefined) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const missing = arrivals.filter((a) => a === undefined).length;
    const times = arrivals.filter((a) => a !== undefined).sort((a, b) => a - b);
    const row = {
      change: change + 1,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      last: times.at(-1),
      missing,
    };
    rows.push(row);
    process.stderr.write(
      `change ${row.change}: p50 ${row.p50?.toFixed(1)} ms, p99 ${row.p99?.toFixed(1)} ms, last ${row.last?.toFixed(1)} ms, missing ${missing}\n`,
    );
  }
  for (const req of streams) req.destroy();
  agent.destroy();
} finally {
  await vexil.stop();
}
const lines = [
  `${CLIENTS} streams (server key, LOG_LEVEL info); time from sending the publish of a prepared draft (PUT …/publish, which refreshes before it answers) until each stream carries the new ETag.`,
  '',
  '| Change | p50 ms | p99 ms | last ms | not arrived in 10 s |',
  '|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.change} | ${r.p50?.toFixed(1)} | ${r.p99?.toFixed(1)} | ${r.last?.toFixed(1)} | ${r.missing} |`),
];
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
fs.writeFileSync(path.join(BENCH_DIR, 'results', 'sse-fanout.md'), text);
