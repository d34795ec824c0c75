/**
 * A three-node Galera cluster for a benchmark scenario: lib/galera-cluster.ts (the test
 * harness) runs in a child process under tsx; its standard input is the cluster's lifeline, so
 * the nodes are stopped when stop() closes it and also when the benchmark dies.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BENCH_DIR, NotAvailable, ROOT } from './util.mjs';

/** Resolves to { hostList, ports, stop() } once the cluster is whole (about a minute). */
export function startGaleraCluster(label) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, 'lib', 'galera-cluster.ts')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.on('error', () => {});
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
    if (err.length > 20_000) err = err.slice(-10_000);
  });
  const stop = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (!line || !out.includes('\n')) return;
      const message = JSON.parse(line);
      if (message.unavailable) reject(new NotAvailable(`Galera: ${message.unavailable}`));
      else if (message.error) reject(new Error(`the Galera cluster (${label}) did not start: ${message.error}`));
      else resolve({ hostList: message.hostList, ports: message.ports, stop });
    });
    child.once('exit', (code) => reject(new Error(`the Galera cluster process exited (${code}): ${err.slice(-2000)}`)));
  });
}
