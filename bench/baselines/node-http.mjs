/**
 * Baseline: a bare node:http server answering every request with the scenario's exact response
 * (status, headers, body bytes). Usage: node node-http.mjs SPEC.json PORT
 */
import fs from 'node:fs';
import http from 'node:http';

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const port = Number(process.argv[3]);
const body = Buffer.from(spec.body, 'base64');
const headers = { ...spec.headers };
if (spec.status !== 304 && spec.status !== 204) headers['content-length'] = String(body.length);

const server = http.createServer((req, res) => {
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
