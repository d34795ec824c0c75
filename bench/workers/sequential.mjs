/**
 * One connection, one request at a time, for `duration` seconds after `warmup`: the service time
 * of a request without queueing, timed with hrtime (autocannon's latencies have 1 ms resolution).
 * Usage: node sequential.mjs '<json {url, headers, warmup, duration}>'; prints one JSON line.
 */
import http from 'node:http';

const o = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL(o.url);

function get() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: o.headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    req.on('error', reject);
  });
}

const latencies = [];
const statuses = {};
let end = Date.now() + o.warmup * 1000;
while (Date.now() < end) await get();
end = Date.now() + o.duration * 1000;
const started = Date.now();
while (Date.now() < end) {
  const r = await get();
  latencies.push(r.ms);
  statuses[r.status] = (statuses[r.status] ?? 0) + 1;
}
const elapsed = (Date.now() - started) / 1000;
agent.destroy();
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
process.stdout.write(
  JSON.stringify({
    total: latencies.length,
    rps: latencies.length / elapsed,
    p50: pct(50),
    p99: pct(99),
    max: latencies[latencies.length - 1],
    statusCodes: statuses,
  }) + '\n',
);
