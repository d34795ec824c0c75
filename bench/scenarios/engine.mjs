/**
 * Scenario 5: the engine alone, in its own process (workers/engine.mjs), on one core; then the
 * cost of the newer constructs beside it (workers/engine-constructs.mjs: a prerequisite chain
 * of 3, a regular expression), reported as `constructs`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_DIR, DIST, NotAvailable, ROOT, settings } from '../lib/util.mjs';

export function engineScenario() {
  if (!fs.existsSync(path.join(DIST, 'src', 'engine', 'index.js'))) {
    return Promise.reject(new NotAvailable('dist/src/engine/index.js is missing'));
  }
  const duration = Math.max(2, Math.round(settings.duration / 2));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH_DIR, 'workers', 'engine.mjs'), JSON.stringify({ duration })], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new NotAvailable(`engine benchmark failed: ${err.split('\n').find((l) => l.trim()) ?? code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  }).then(async (result) => ({ ...result, constructs: await runWorker('engine-constructs.mjs', duration) }));
}

/** Runs one engine worker and parses its JSON line. */
function runWorker(file, duration) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH_DIR, 'workers', file), JSON.stringify({ duration })], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new NotAvailable(`${file} failed: ${err.split('\n').find((l) => l.trim()) ?? code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}
