/** Scenario 6: the management write cycle at 10 concurrent clients, with Idempotency-Key. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Api } from '../lib/api.mjs';
import { createProject } from '../lib/setup.mjs';
import { BENCH_DIR, NotAvailable, ROOT, settings } from '../lib/util.mjs';

export const WRITE_CLIENTS = 10;

function runWorker(options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH_DIR, 'workers', 'write-cycle.mjs'), JSON.stringify(options)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`write-cycle worker failed (${code}): ${err.slice(-2000)}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

export async function writeCycle(vexil) {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  await createProject(api, 'bench-writes', ['production']);
  // One cycle first: an endpoint that is not built makes the scenario "not available".
  const probe = await runWorker({
    baseUrl: vexil.baseUrl,
    token: vexil.ownerToken,
    project: 'bench-writes',
    env: 'production',
    clients: 1,
    warmup: 0,
    duration: 0.3,
    serverPid: vexil.pid,
  });
  if (probe.failureCount > 0) throw new NotAvailable(probe.failures[0]);
  const result = await runWorker({
    baseUrl: vexil.baseUrl,
    token: vexil.ownerToken,
    project: 'bench-writes',
    env: 'production',
    clients: WRITE_CLIENTS,
    warmup: Math.min(settings.warmup, 3),
    duration: settings.duration,
    serverPid: vexil.pid,
  });
  if (result.failureCount > 0) throw new NotAvailable(`${result.failureCount} failed requests, e.g. ${result.failures[0]}`);
  return result;
}
