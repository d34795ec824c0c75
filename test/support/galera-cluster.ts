import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { serverPort } from './ports.js';

const run = promisify(execFile);

/**
 * A three-node MariaDB Galera cluster of a test's own: three `mariadbd` processes with wsrep on
 * loopback ports, each with a private data directory in one temporary folder. The machine's own
 * MariaDB (127.0.0.1:3306) is never touched.
 *
 * The nodes run as the `mysql` user on directories it owns: a joiner's rsync state transfer fails
 * with "Permission denied" otherwise, and the folder above them must be enterable by that user.
 */
export interface GaleraNode {
  readonly name: string;
  /** Client port on 127.0.0.1. */
  readonly port: number;
  /** `mysql://root@127.0.0.1:PORT` (no database). */
  readonly url: string;
  /** The running mariadbd's pid, or undefined while the node is down. */
  pid(): number | undefined;
}

export interface GaleraCluster {
  readonly nodes: readonly GaleraNode[];
  /** `host:port,host:port,...` of every node, starting at node `first`. */
  hostList(first?: number): string;
  /** SIGKILL: the node dies at once, as in a crash. Resolves once the process is gone. */
  kill(index: number): Promise<void>;
  /**
   * Starts a killed node again so that it rejoins by incremental state transfer: its last
   * position is recovered (`--wsrep_recover`) and passed as `--wsrep_start_position`. Resolves
   * once it is Synced in a cluster of three. Returns how the state was transferred (IST or SST,
   * read from the node's log).
   */
  restart(index: number): Promise<'IST' | 'SST'>;
  /** Waits until every running node reports a cluster of `size` and is Synced. */
  waitUntilWhole(size?: number, withinMs?: number): Promise<void>;
  /** Answers of `SHOW STATUS LIKE 'wsrep_%'` on one node (names lower-cased). */
  status(index: number): Promise<Record<string, string>>;
  /** Stops every node (SIGKILL after a grace period) and removes the folder. Safe to call twice. */
  stop(): Promise<void>;
}

const provider = '/usr/lib/galera/libgalera_smm.so';
const serverBinary = ['/usr/sbin/mariadbd', '/usr/local/sbin/mariadbd'].find((file) => fs.existsSync(file)) ?? 'mariadbd';
const runAs = 'mysql';

/** Why a cluster cannot be started on this machine, or undefined when it can. */
export function galeraUnavailable(): string | undefined {
  if (!fs.existsSync(provider)) return `the Galera provider ${provider} is missing (Debian package galera-4)`;
  for (const binary of ['mariadb-install-db', 'rsync', serverBinary]) {
    const found = path.isAbsolute(binary) ? fs.existsSync(binary) : spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;
    if (!found) return `${binary} is not installed`;
  }
  if (spawnSync('id', ['-u', runAs]).status !== 0) return `there is no "${runAs}" user to run the nodes as`;
  if (process.getuid?.() !== 0) return 'the nodes must be started as root (they drop to the mysql user)';
  return undefined;
}

async function portIsFree(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `count` distinct free loopback ports, away from the ephemeral range (ports.ts). */
async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = serverPort();
    if (!ports.includes(port) && (await portIsFree(port))) ports.push(port);
  }
  return ports;
}

function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface NodeState {
  name: string;
  dir: string;
  port: number;
  gcommPort: number;
  istPort: number;
  sstPort: number;
  child?: ChildProcess;
}

export async function startGaleraCluster(options: { log?: (line: string) => void } = {}): Promise<GaleraCluster> {
  const log = options.log ?? (() => undefined);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-galera-'));
  // mkdtemp makes the folder 0700 for root: the nodes (user mysql) must be able to enter it.
  fs.chmodSync(base, 0o755);
  const ports = await freePorts(12);
  const states: NodeState[] = [0, 1, 2].map((i) => ({
    name: `node${i + 1}`,
    dir: path.join(base, `node${i + 1}`),
    port: ports[i * 4]!,
    gcommPort: ports[i * 4 + 1]!,
    istPort: ports[i * 4 + 2]!,
    sstPort: ports[i * 4 + 3]!,
  }));
  const clusterName = `vexil-test-${path.basename(base).slice(-6)}`;
  const everyNode = `gcomm://${states.map((s) => `127.0.0.1:${s.gcommPort}`).join(',')}`;
  // Small InnoDB files: the cluster lives for one test file.
  const innodb = ['--innodb-buffer-pool-size=48M', '--innodb-log-file-size=16M'];

  const errorLog = (s: NodeState) => path.join(s.dir, 'error.log');
  const readLog = (s: NodeState) => (fs.existsSync(errorLog(s)) ? fs.readFileSync(errorLog(s), 'utf8') : '');

  function serverArgs(s: NodeState): string[] {
    return [
      '--no-defaults',
      `--user=${runAs}`,
      `--datadir=${path.join(s.dir, 'data')}`,
      `--tmpdir=${path.join(s.dir, 'tmp')}`,
      `--port=${s.port}`,
      '--bind-address=127.0.0.1',
      `--socket=${path.join(s.dir, 'mariadb.sock')}`,
      `--pid-file=${path.join(s.dir, 'mariadb.pid')}`,
      `--log-error=${errorLog(s)}`,
      '--skip-name-resolve',
      ...innodb,
      '--binlog-format=ROW',
      '--default-storage-engine=InnoDB',
      '--innodb-autoinc-lock-mode=2',
      '--wsrep-on=ON',
      `--wsrep-provider=${provider}`,
      `--wsrep-cluster-name=${clusterName}`,
      `--wsrep-node-name=${s.name}`,
      `--wsrep-node-address=127.0.0.1:${s.gcommPort}`,
      `--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${s.gcommPort};ist.recv_addr=127.0.0.1:${s.istPort};base_port=${s.gcommPort};gcache.size=64M`,
      `--wsrep-sst-receive-address=127.0.0.1:${s.sstPort}`,
      '--wsrep-sst-method=rsync',
    ];
  }

  async function install(s: NodeState): Promise<void> {
    // A temporary folder of each node's own, the installs' too: installs running side by side in
    // one folder collide on their temporary tables' names.
    fs.mkdirSync(path.join(s.dir, 'tmp'), { recursive: true });
    await run('chown', ['-R', `${runAs}:${runAs}`, s.dir]);
    await run(
      'mariadb-install-db',
      [
        '--no-defaults',
        '--auth-root-authentication-method=normal',
        `--datadir=${path.join(s.dir, 'data')}`,
        `--tmpdir=${path.join(s.dir, 'tmp')}`,
        `--user=${runAs}`,
        '--skip-test-db',
        ...innodb,
      ],
      { timeout: 120_000 },
    );
    await run('chown', ['-R', `${runAs}:${runAs}`, s.dir]);
  }

  function launch(s: NodeState, extra: string[]): ChildProcess {
    const child = spawn(serverBinary, [...serverArgs(s), ...extra], { stdio: 'ignore' });
    child.on('error', () => undefined);
    s.child = child;
    log(`${s.name} started (pid ${child.pid}, port ${s.port}) ${extra.join(' ')}`);
    return child;
  }

  async function query<T = Record<string, unknown>[]>(s: NodeState, sql: string, timeoutMs = 2000): Promise<T> {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: s.port, user: 'root', connectTimeout: timeoutMs });
    conn.on('error', () => undefined);
    try {
      const [rows] = await conn.query({ sql, timeout: timeoutMs });
      return rows as T;
    } finally {
      conn.destroy();
    }
  }

  async function status(s: NodeState): Promise<Record<string, string>> {
    const rows = await query<{ Variable_name: string; Value: string }[]>(s, "SHOW STATUS LIKE 'wsrep_%'");
    return Object.fromEntries(rows.map((r) => [r.Variable_name.toLowerCase(), String(r.Value)]));
  }

  async function waitSynced(s: NodeState, size: number, withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    let last = '';
    for (;;) {
      if (s.child && (s.child.exitCode !== null || s.child.signalCode !== null)) {
        throw new Error(`${s.name} exited while joining:\n${readLog(s).slice(-3000)}`);
      }
      try {
        const st = await status(s);
        last = `size ${st.wsrep_cluster_size}, ${st.wsrep_local_state_comment}, ${st.wsrep_cluster_status}, ready ${st.wsrep_ready}`;
        if (
          Number(st.wsrep_cluster_size) === size &&
          st.wsrep_local_state_comment === 'Synced' &&
          st.wsrep_cluster_status === 'Primary' &&
          st.wsrep_ready === 'ON'
        )
          return;
      } catch (error) {
        last = (error as Error).message;
      }
      if (Date.now() > deadline)
        throw new Error(`${s.name} not Synced in a cluster of ${size} within ${withinMs} ms (${last}):\n${readLog(s).slice(-3000)}`);
      await sleep(250);
    }
  }

  async function killNode(s: NodeState): Promise<void> {
    const child = s.child;
    if (!child) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited(child, 10_000);
    s.child = undefined;
  }

  /** The position the node's data directory holds, from `mariadbd --wsrep_recover`. */
  async function recoveredPosition(s: NodeState): Promise<string> {
    const recoverLog = path.join(s.dir, 'recover.log');
    fs.rmSync(recoverLog, { force: true });
    const args = serverArgs(s).map((a) => (a.startsWith('--log-error=') ? `--log-error=${recoverLog}` : a));
    await run(serverBinary, [...args, `--wsrep-cluster-address=${everyNode}`, '--wsrep-recover'], { timeout: 60_000 });
    const text = fs.readFileSync(recoverLog, 'utf8');
    const position = /Recovered position:\s*([0-9a-f-]{36}:-?\d+)/.exec(text)?.[1];
    if (!position) throw new Error(`${s.name}: no recovered position in its --wsrep-recover log:\n${text.slice(-2000)}`);
    return position;
  }

  // A test process that ends without its teardown (a crash, a timeout) takes the nodes with it.
  const killAll = () => {
    for (const s of states) s.child?.kill('SIGKILL');
  };
  process.once('exit', killAll);

  let stopped = false;
  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killAll);
    await Promise.all(
      states.map(async (s) => {
        const child = s.child;
        if (!child) return;
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        if (!(await exited(child, 20_000))) {
          child.kill('SIGKILL');
          await exited(child, 5000);
        }
        s.child = undefined;
      }),
    );
    fs.rmSync(base, { recursive: true, force: true });
  }

  try {
    await Promise.all(states.map(install));
    // The first node bootstraps a new cluster; the others join it (by rsync state transfer).
    launch(states[0]!, ['--wsrep-new-cluster', '--wsrep-cluster-address=gcomm://']);
    await waitSynced(states[0]!, 1, 60_000);
    for (const s of states.slice(1)) {
      launch(s, [`--wsrep-cluster-address=${everyNode}`]);
      await waitSynced(s, states.indexOf(s) + 1, 120_000);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const cluster: GaleraCluster = {
    nodes: states.map((s) => ({
      name: s.name,
      port: s.port,
      url: `mysql://root@127.0.0.1:${s.port}`,
      pid: () => s.child?.pid,
    })),
    hostList: (first = 0) => [0, 1, 2].map((i) => `127.0.0.1:${states[(first + i) % 3]!.port}`).join(','),
    kill: (index) => killNode(states[index]!),
    restart: async (index) => {
      const s = states[index]!;
      if (s.child) throw new Error(`${s.name} is running`);
      const position = await recoveredPosition(s);
      const logStart = readLog(s).length;
      // Never `gcomm://` alone: a killed bootstrap node refuses to bootstrap again; it rejoins the others.
      launch(s, [`--wsrep-cluster-address=${everyNode}`, `--wsrep-start-position=${position}`]);
      await waitSynced(s, 3, 120_000);
      const joined = readLog(s).slice(logStart);
      // With rsync the joiner's script runs either way; with a known position it only hands over
      // the position ("rsync IST completed") and the write sets come by IST.
      return /IST received/.test(joined) && !/rsync SST completed/.test(joined) ? 'IST' : 'SST';
    },
    waitUntilWhole: async (size = 3, withinMs = 60_000) => {
      await Promise.all(states.filter((s) => s.child).map((s) => waitSynced(s, size, withinMs)));
    },
    status: (index) => status(states[index]!),
    stop,
  };
  return cluster;
}
