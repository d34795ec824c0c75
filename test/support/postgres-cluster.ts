import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { serverPort } from './ports.js';

const run = promisify(execFile);

/**
 * A PostgreSQL primary and a synchronous streaming standby of a test's own: private data
 * directories in a temp folder, owned by and run as the `postgres` user (PostgreSQL refuses to
 * run as root), on loopback ports of their own. The machine's own cluster (port 5432) is never
 * touched. Trust authentication, user `postgres`, as on the machine's cluster.
 */
export interface PostgresCluster {
  primary: PostgresNode;
  standby: PostgresNode;
  /** `postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/DATABASE?target_session_attrs=read-write` */
  hostsUrl(database: string): string;
  /** Runs one statement on a node (database `postgres` unless named) and returns its rows. */
  query<Row = Record<string, unknown>>(node: PostgresNode, sql: string, database?: string): Promise<Row[]>;
  /** SIGKILL to the node's postmaster and every process it had started: the node dies at once. */
  kill(node: PostgresNode): void;
  /** Starts a node again (after `kill`), as it was started first; a standby resumes streaming. */
  restart(node: PostgresNode): Promise<void>;
  /** Resolves once the standby streams from the primary as its synchronous standby. */
  synchronous(): Promise<void>;
  /** Promotes the standby and resolves once it accepts writes. */
  promoteStandby(): Promise<void>;
  /** Stops every node still running (fast shutdown, SIGKILL after 10 s) and removes the folder. */
  stop(): Promise<void>;
}

export interface PostgresNode {
  name: 'primary' | 'standby';
  port: number;
  dataDirectory: string;
  /** The postmaster's own pid (runuser forks: the pid of the command started is not the server's). */
  pid(): number | undefined;
}

const binaries = '/usr/lib/postgresql/15/bin';
const serverUser = 'postgres';

/** Why a private cluster cannot be started here, or undefined when it can. */
export function postgresClusterUnavailable(): string | undefined {
  for (const binary of ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres']) {
    if (!fs.existsSync(path.join(binaries, binary))) return `${binaries}/${binary} is not installed`;
  }
  if (!fs.existsSync('/usr/sbin/runuser')) return '/usr/sbin/runuser is not installed';
  if (process.getuid?.() !== 0) return 'the private cluster needs root, to run its servers as the postgres user';
  return undefined;
}

async function asServerUser(binary: string, args: string[], timeoutMs = 60_000): Promise<string> {
  const { stdout } = await run('/usr/sbin/runuser', ['-u', serverUser, '--', path.join(binaries, binary), ...args], {
    timeout: timeoutMs,
  });
  return stdout;
}

function pidOf(dataDirectory: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids whose parent is `pid` (the postmaster's backends, WAL sender and receiver, checkpointer...). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children;
}

async function waitUntil(what: string, check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`the private PostgreSQL cluster: ${what} did not happen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-postgres-cluster-'));
  // mkdtemp makes the folder 0700 for root: the server user must be able to enter it.
  fs.chmodSync(folder, 0o755);
  const nodes: PostgresNode[] = [];
  const node = (name: PostgresNode['name']): PostgresNode => {
    const dataDirectory = path.join(folder, name);
    const created: PostgresNode = { name, port: serverPort(), dataDirectory, pid: () => pidOf(dataDirectory) };
    nodes.push(created);
    return created;
  };
  // Should the test process end without its teardown, its servers end with it.
  const killOnExit = () => {
    for (const n of nodes) {
      const pid = n.pid();
      if (pid !== undefined) killTree(pid);
    }
  };
  process.once('exit', killOnExit);

  const query = async <Row>(n: PostgresNode, sql: string, database = 'postgres'): Promise<Row[]> => {
    const client = new pg.Client({ host: '127.0.0.1', port: n.port, user: 'postgres', database, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.query(sql)).rows as Row[];
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const settingsOf = new Map<PostgresNode, string[]>();
  const start = async (n: PostgresNode, settings: string[]) => {
    settingsOf.set(n, settings);
    const logFile = path.join(folder, `${n.name}.log`);
    const options = [`-p ${n.port}`, "-c listen_addresses='127.0.0.1'", `-c unix_socket_directories='${folder}'`, ...settings].join(' ');
    try {
      await asServerUser('pg_ctl', ['-D', n.dataDirectory, '-l', logFile, '-w', '-t', '60', '-o', options, 'start'], 90_000);
    } catch (error) {
      const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`the private PostgreSQL ${n.name} did not start on port ${n.port}: ${(error as Error).message}\n${log}`);
    }
  };

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await Promise.all(
      nodes.map(async (n) => {
        const pid = n.pid();
        if (pid === undefined || !isRunning(pid)) return;
        // SIGINT: PostgreSQL's fast shutdown (open sessions are ended, not waited for).
        process.kill(pid, 'SIGINT');
        const deadline = Date.now() + 10_000;
        while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        if (isRunning(pid)) killTree(pid);
      }),
    );
    fs.rmSync(folder, { recursive: true, force: true });
  };

  try {
    fs.chownSync(folder, ...serverIds());
    const primary = node('primary');
    const standby = node('standby');
    await asServerUser('initdb', ['-D', primary.dataDirectory, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    // Small and quick: the servers live for one test file. hot_standby lets the test read the standby.
    // fsync off: the faults here kill processes, not the machine, so what a server wrote survives
    // in the page cache, and synchronous replication still waits for the standby to have the WAL.
    const shared = [
      '-c fsync=off',
      '-c shared_buffers=16MB',
      '-c max_connections=100',
      '-c wal_level=replica',
      '-c max_wal_senders=4',
      '-c hot_standby=on',
    ];
    await start(primary, shared);
    await asServerUser('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      standby.dataDirectory,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    // synchronous_standby_names is cleared on the standby: once promoted, with no standby of its
    // own, a setting copied from the primary would hang every commit.
    await start(standby, [...shared, "-c synchronous_standby_names=''", '-c cluster_name=standby']);
    await waitUntil(
      'the standby streaming',
      async () => (await query<{ state: string }>(primary, 'SELECT state FROM pg_stat_replication')).some((r) => r.state === 'streaming'),
      30_000,
    );
    // Synchronous only now: set before the standby streams, it would hang every commit meanwhile.
    await query(primary, "ALTER SYSTEM SET synchronous_standby_names = '*'");
    await query(primary, 'SELECT pg_reload_conf()');
    const synchronous = () =>
      waitUntil(
        'the standby streaming synchronously',
        async () =>
          (await query<{ sync_state: string; state: string }>(primary, 'SELECT state, sync_state FROM pg_stat_replication')).some(
            (r) => r.state === 'streaming' && r.sync_state === 'sync',
          ),
        30_000,
      );
    await synchronous();
    return {
      primary,
      standby,
      hostsUrl: (database) =>
        `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/${encodeURIComponent(database)}?target_session_attrs=read-write`,
      query,
      kill: (n) => {
        const pid = n.pid();
        if (pid === undefined) throw new Error(`the private PostgreSQL ${n.name} is not running`);
        killTree(pid);
      },
      restart: (n) => start(n, settingsOf.get(n) ?? []),
      synchronous,
      promoteStandby: async () => {
        await asServerUser('pg_ctl', ['-D', standby.dataDirectory, '-w', '-t', '60', 'promote'], 90_000);
        await waitUntil(
          'the promoted standby accepting writes',
          async () => (await query<{ standby: boolean }>(standby, 'SELECT pg_is_in_recovery() AS standby'))[0]?.standby === false,
          30_000,
        );
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The postmaster and its processes, all at once (its children, listed first: they would outlive it). */
function killTree(pid: number): void {
  const children = childrenOf(pid);
  for (const target of [pid, ...children]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

function serverIds(): [number, number] {
  const passwd = fs.readFileSync('/etc/passwd', 'utf8').split('\n');
  const entry = passwd.find((line) => line.startsWith(`${serverUser}:`));
  if (!entry) throw new Error(`no ${serverUser} user on this machine`);
  const [, , uid, gid] = entry.split(':');
  return [Number(uid), Number(gid)];
}
