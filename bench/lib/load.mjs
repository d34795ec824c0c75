/** Runs autocannon in a separate process (workers/autocannon.mjs) and returns its JSON result. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BENCH_DIR, ROOT, settings } from './util.mjs';

export function runLoad({
  serverPid,
  url,
  method = 'GET',
  headers = {},
  body,
  connections = settings.connections,
  duration = settings.duration,
  warmup = settings.warmup,
  varyHeader,
  rate,
}) {
  const options = JSON.stringify({ serverPid, url, method, headers, body, connections, duration, warmup, varyHeader, rate });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH_DIR, 'workers', 'autocannon.mjs'), options], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator failed (${code}): ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch (e) {
        reject(new Error(`load generator output unreadable: ${out.slice(-500)} ${err.slice(-500)}`));
      }
    });
  });
}

/** Sequential requests on one connection (workers/sequential.mjs): precise service-time latencies. */
export function runSequential({ url, headers = {}, duration, warmup = 1 }) {
  const options = JSON.stringify({ url, headers, duration, warmup });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH_DIR, 'workers', 'sequential.mjs'), options], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`sequential client failed (${code}): ${err.slice(-2000)}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}
