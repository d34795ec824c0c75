/**
 * Runs the test harness's three-node Galera cluster (test/support/galera-cluster.ts) for the
 * benchmark, as a child process of bench/run.mjs (through lib/galera.mjs, with tsx).
 * Prints one JSON line: { hostList, ports } once the cluster is whole, or { unavailable } when
 * Galera cannot run on this machine, or { error }. Stops the cluster and exits when its standard
 * input closes (the benchmark is done, or died) or on SIGTERM/SIGINT.
 */
import { galeraUnavailable, startGaleraCluster, type GaleraCluster } from '../../test/support/galera-cluster.js';

const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

let cluster: GaleraCluster | undefined;
let stopping: Promise<void> | undefined;
function stopAndExit(code: number): Promise<void> {
  stopping ??= (async () => {
    try {
      await cluster?.stop();
    } finally {
      process.exit(code);
    }
  })();
  return stopping;
}

process.stdin.on('end', () => void stopAndExit(0));
process.stdin.on('error', () => void stopAndExit(0));
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void stopAndExit(0));

const unavailable = galeraUnavailable();
if (unavailable) {
  say({ unavailable });
  process.exit(0);
}
try {
  cluster = await startGaleraCluster({ log: (line) => process.stderr.write(`galera: ${line}\n`) });
  if (stopping) await stopping;
  say({ hostList: cluster.hostList(), ports: cluster.nodes.map((n) => n.port) });
} catch (error) {
  say({ error: String((error as Error)?.message ?? error).slice(0, 2000) });
  await stopAndExit(1);
}
