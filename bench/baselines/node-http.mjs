/**
 * Baseline: a bare node:http server answering every request with the scenario's exact response
 * (status, headers, body bytes), and its event-loop delay on GET /__lag. Usage: node node-http.mjs SPEC.json PORT
 */
import fs from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const port = Number(process.argv[3]);
const body = Buffer.from(spec.body, 'base64');
const headers = { ...spec.headers };
if (spec.status !== 304 && spec.status !== 204) headers['content-length'] = String(body.length);

// The event-loop delay as Vexil's /metrics measures it (prom-client: a 10 ms resolution), read and
// reset by GET /__lag: scenario 9's floor, the delay of a loop that only answers.
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

const server = http.createServer((req, res) => {
  if (req.url === '/__lag') {
    const body = JSON.stringify({ p99: delay.percentile(99) / 1e9, mean: delay.mean / 1e9, max: delay.max / 1e9 });
    delay.reset();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
    return;
  }
  // Read the request body (POST scenarios) before answering, as any real server must.
  req.resume();
  req.on('end', () => {
    res.writeHead(spec.status, headers);
    res.end(spec.status === 304 || spec.status === 204 ? undefined : body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
