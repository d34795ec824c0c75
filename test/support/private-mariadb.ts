import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { mysqlAnswers } from './mysql-answers.js';

const run = promisify(execFile);

/**
 * A MariaDB server of a test's own (its own data directory, port and socket in a temp folder),
 * for tests that freeze the database with SIGSTOP: the shared server at 127.0.0.1:3306 serves the
 * other suites meanwhile and must never be stopped. root has no password, as on the shared one.
 */
export interface PrivateMariadb {
  /** `mysql://root@127.0.0.1:PORT` (no database). */
  url: string;
  pid: number;
  /**
   * SIGSTOP, resolved once every thread of the server is stopped: the server keeps its
   * connections open and answers nothing. A stop takes effect thread by thread, and a thread
   * waiting on the disk (an InnoDB flush on a busy machine) stops only when its wait ends, so the
   * signal alone does not mean the server has stopped answering.
   */
  freeze(): Promise<void>;
  /** SIGCONT. */
  thaw(): void;
  /** Stops the server (thawing it first) and removes its directory. */
  stop(): Promise<void>;
}

const installDb = 'mariadb-install-db';
const serverBinary = ['/usr/sbin/mariadbd', '/usr/local/sbin/mariadbd'].find((file) => fs.existsSync(file)) ?? 'mariadbd';

/** Why a private server cannot be started here, or undefined when it can. */
export function privateMariadbUnavailable(): string | undefined {
  for (const binary of [installDb, serverBinary]) {
    const found = path.isAbsolute(binary) ? fs.existsSync(binary) : spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;
    if (!found) return `${binary} is not installed`;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits (at most 10 s) until every thread of `pid` is in the stopped state ('T' in /proc). */
async function allThreadsStopped(pid: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  const stateOf = (task: string) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      return 'T'; // a thread that ended meanwhile answers nothing either
    }
  };
  while (!fs.readdirSync(`/proc/${pid}/task`).every((task) => stateOf(task) === 'T')) {
    if (Date.now() > deadline) throw new Error(`the private MariaDB server (pid ${pid}) did not stop within 10 s of SIGSTOP`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
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

export async function startPrivateMariadb(): Promise<PrivateMariadb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-private-mariadb-'));
  const datadir = path.join(dir, 'data');
  const user = os.userInfo().username;
  // Small InnoDB files: the server lives for one test file.
  const innodb = ['--innodb-buffer-pool-size=32M', '--innodb-log-file-size=8M'];
  let child: ChildProcess | undefined;
  const cleanUp = async () => {
    if (child) {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      if (!(await exited(child, 15_000))) {
        child.kill('SIGKILL');
        await exited(child, 5000);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run(
      installDb,
      ['--no-defaults', '--auth-root-authentication-method=normal', `--datadir=${datadir}`, `--user=${user}`, '--skip-test-db', ...innodb],
      {
        timeout: 60_000,
      },
    );
    const port = await freePort();
    child = spawn(
      serverBinary,
      [
        '--no-defaults',
        `--user=${user}`,
        `--datadir=${datadir}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${path.join(dir, 'mariadb.sock')}`,
        `--pid-file=${path.join(dir, 'mariadb.pid')}`,
        `--log-error=${path.join(dir, 'error.log')}`,
        '--skip-name-resolve',
        ...innodb,
      ],
      { stdio: 'ignore' },
    );
    const url = `mysql://root@127.0.0.1:${port}`;
    const started = Date.now();
    while (!(await mysqlAnswers(url, 1000))) {
      if (child.exitCode !== null || Date.now() - started > 30_000) {
        const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
        throw new Error(`the private MariaDB server did not start on port ${port}:\n${log.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const server = child;
    return {
      url,
      pid: server.pid!,
      freeze: async () => {
        server.kill('SIGSTOP');
        await allThreadsStopped(server.pid as number);
      },
      thaw: () => void server.kill('SIGCONT'),
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
