/**
 * Load generator process: autocannon against one request, a warm-up run (discarded) then the
 * measured run. Usage: node autocannon.mjs '<json options>'; prints one JSON result line.
 * Options: url, method, headers, body, connections, warmup (s), duration (s); varyHeader
 * ({ name, template }): that header set on every request to the template with `{n}` replaced by a
 * new number each time; rate: requests per second across all connections (a paced load; unset:
 * as fast as the server answers).
 */
import fs from 'node:fs';
import autocannon from 'autocannon';

const TICKS = 100; // USER_HZ on Linux

const o = JSON.parse(process.argv[2]);

let sent = 0;
/** autocannon's per-request hook: a new value of the varied header on every request. */
const varied = o.varyHeader
  ? [
      {
        setupRequest(request) {
          request.headers = { ...request.headers, [o.varyHeader.name]: o.varyHeader.template.replace('{n}', String(++sent)) };
          return request;
        },
      },
    ]
  : undefined;

function run(duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: o.url,
        requests: varied,
        method: o.method ?? 'GET',
        headers: o.headers ?? {},
        body: o.body,
        connections: o.connections ?? 50,
        pipelining: 1,
        ...(o.rate ? { overallRate: o.rate } : {}),
        duration,
        timeout: 10,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** CPU time (ms, user + system) used so far by the server process, from /proc/<pid>/stat. */
function cpuMs(pid) {
  if (!pid) return NaN;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return NaN;
  }
}

if (o.warmup > 0) await run(o.warmup);
const cpu0 = cpuMs(o.serverPid);
const r = await run(o.duration);
const serverCpuMs = cpuMs(o.serverPid) - cpu0;
const statusCodes = {};
for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = stat.count;
const total = r.requests.total;
process.stdout.write(
  JSON.stringify({
    rps: total / r.duration,
    total,
    duration: r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    avg: r.latency.average,
    max: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    /** Server CPU time per request (µs) and the share of one core the server used. */
    serverCpuUsPerReq: total > 0 ? (serverCpuMs * 1000) / total : NaN,
    serverCpuShare: serverCpuMs / (r.duration * 1000),
    bytesPerReq: total > 0 ? r.throughput.total / total : 0,
  }) + '\n',
);
