/**
 * Scenario 6 load process: `clients` concurrent clients, each repeating the management write
 * cycle (create flag, add value, create draft target, add rule, publish), every request with
 * its own Idempotency-Key. Each request's latency is recorded (hrtime, keep-alive connections,
 * one per client). A warm-up period is run and discarded first.
 * Usage: node write-cycle.mjs '<json {baseUrl, token, project, env, clients, warmup, duration, serverPid}>'
 * Prints one JSON line: latencies per step and overall, cycles, failures.
 */
import fs from 'node:fs';
import http from 'node:http';

const o = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: o.clients });
const base = new URL(o.baseUrl);
let idem = 0;

function call(method, path, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = {
    authorization: `Bearer ${o.token}`,
    'idempotency-key': `wc-${process.pid}-${++idem}`,
  };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host: base.hostname, port: base.port, method, path: `/management/v1${path}`, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, json, text, ms });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const STEPS = ['createFlag', 'createFlagValue', 'createTarget', 'createRule', 'publishTarget'];
let recording = false;
const latencies = Object.fromEntries(STEPS.map((s) => [s, []]));
let cycles = 0;
const failures = [];

async function step(name, method, path, body) {
  const res = await call(method, path, body);
  if (recording) latencies[name].push(res.ms);
  if (res.status !== 200) {
    failures.push(`${name} ${method} ${path.replace(/[a-z]{3}_[0-9A-Z]{26}/g, '{ulid}')} -> ${res.status} ${res.text.slice(0, 200)}`);
    return undefined;
  }
  return res.json;
}

async function cycle(client, n) {
  const key = `wc-${client}-${n}-${process.pid}`;
  const p = `/projects/${o.project}`;
  const e = `${p}/flags/${key}/environments/${o.env}`;
  if (!(await step('createFlag', 'POST', `${p}/flags`, { key, name: `Write cycle ${key}`, type: 'string' }))) return false;
  const value = await step('createFlagValue', 'POST', `${p}/flags/${key}/values`, { display: 'blue' });
  if (!value) return false;
  const target = await step('createTarget', 'POST', `${e}/targets`);
  if (!target) return false;
  const t = `${e}/targets/${target.data.ulid}`;
  const rule = await step('createRule', 'POST', `${t}/rules`, {
    value_ulid: value.data.ulid,
    description: 'German users',
    criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'equal', values: ['DE'] }],
  });
  if (!rule) return false;
  if (!(await step('publishTarget', 'PUT', `${t}/publish`, { comment: 'bench' }))) return false;
  if (recording) cycles++;
  return true;
}

function cpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

let stopAt = Date.now() + o.warmup * 1000;
let stopped = false;
const clients = Array.from({ length: o.clients }, async (_, client) => {
  let n = 0;
  while (!stopped) {
    const ok = await cycle(client, n++);
    if (!ok && failures.length > 50) {
      stopped = true;
      return;
    }
  }
});
await new Promise((r) => setTimeout(r, o.warmup * 1000));
recording = true;
const cpu0 = cpuMs(o.serverPid);
const started = Date.now();
await new Promise((r) => setTimeout(r, o.duration * 1000));
recording = false;
const elapsed = (Date.now() - started) / 1000;
const cpu = cpuMs(o.serverPid) - cpu0;
stopped = true;
await Promise.all(clients);
agent.destroy();

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const summary = (list) => {
  const s = [...list].sort((a, b) => a - b);
  return { count: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1] ?? NaN };
};
const all = STEPS.flatMap((s) => latencies[s]);
process.stdout.write(
  JSON.stringify({
    elapsed,
    cycles,
    cyclesPerSecond: cycles / elapsed,
    rps: all.length / elapsed,
    overall: summary(all),
    steps: Object.fromEntries(STEPS.map((s) => [s, summary(latencies[s])])),
    serverCpuShare: cpu / (elapsed * 1000),
    failures: failures.slice(0, 5),
    failureCount: failures.length,
  }) + '\n',
);
