/**
 * Starting and stopping the processes under test: a Vexil server (built dist/, its own fresh
 * database: a SQLite file in a temporary folder, a MariaDB/MySQL or PostgreSQL database created
 * for the run and dropped after it, or a Galera cluster of the run's own), and the baseline servers. Each is a separate `node` process whose pid is
 * the server itself, so /proc/<pid>/status VmHWM is that server's peak RSS.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startGaleraCluster } from './galera.mjs';
import { BENCH_DIR, DIST, NotAvailable, ROOT, secret, settings, sleep } from './util.mjs';

/**
 * The Node.js binary servers and baselines run on: BENCH_NODE (e.g. /usr/bin/node, to compare
 * Node lines side by side), else the one running the benchmark.
 */
export const serverNode = process.env.BENCH_NODE || process.execPath;
export const serverNodeVersion = execFileSync(serverNode, ['--version'], { encoding: 'utf8' }).trim();

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Peak resident set size (VmHWM) and current RSS (VmRSS) of a process, in bytes. */
export function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => {
      const m = status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'));
      return m ? Number(m[1]) * 1024 : NaN;
    };
    return { peakRss: kb('VmHWM'), rss: kb('VmRSS') };
  } catch {
    return { peakRss: NaN, rss: NaN };
  }
}

let tmpRoot;
function tempDir(label) {
  tmpRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-bench-'));
  const dir = path.join(tmpRoot, label);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function removeTempFiles() {
  if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
}

/** The MySQL/MariaDB server URL to use, or undefined: DATABASE_URL when it is mysql://, else BENCH_MYSQL_URL, else the local default. */
export function mysqlServerUrl() {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv && /^(mysql|mariadb):\/\//.test(fromEnv)) return fromEnv.replace(/^mariadb:/, 'mysql:');
  return process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306/vexil';
}

/** The PostgreSQL server URL to use: DATABASE_URL when it is postgres://, else BENCH_POSTGRES_URL, else the local default. */
export function postgresServerUrl() {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv && /^postgres(ql)?:\/\//.test(fromEnv)) return fromEnv.replace(/^postgresql:/, 'postgres:');
  return process.env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/vexil';
}

/** Runs one statement on the PostgreSQL server's maintenance database (postgres). */
async function onPostgresServer(sql, timeoutMs = 10_000) {
  const { default: pg } = await import('pg');
  const url = new URL(postgresServerUrl());
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.href, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether a PostgreSQL server answers at the configured URL. */
export async function postgresReachable() {
  try {
    await onPostgresServer('SELECT 1', 3000);
    return true;
  } catch {
    return false;
  }
}

/** Whether the whole suite runs on MySQL (DATABASE_URL=mysql://...) rather than the embedded SQLite default. */
export function mainDialect() {
  const url = process.env.DATABASE_URL;
  return url && /^(mysql|mariadb):\/\//.test(url) ? 'mysql' : 'sqlite';
}

let dbCounter = 0;
/** Databases created on the MySQL server and not yet dropped (dropped if the run is interrupted). */
export const liveDatabases = new Set();
/** A fresh database: { url, dialect, drop() }. */
export async function createDatabase(dialect, label) {
  if (dialect === 'sqlite') {
    const file = path.join(tempDir(label), 'vexil.db');
    return {
      url: `sqlite:${file}`,
      dialect,
      file,
      drop: async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }),
    };
  }
  if (dialect === 'postgres') return createPostgresDatabase();
  if (dialect === 'galera') return createGaleraDatabase(label);
  const serverUrl = new URL(mysqlServerUrl());
  const name = `vexil_bench_${process.pid}_${++dbCounter}`;
  const { default: mysql } = await import('mysql2/promise');
  const adminUrl = new URL(serverUrl.href);
  adminUrl.pathname = '/';
  const conn = await mysql.createConnection(adminUrl.href);
  try {
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await conn.end();
  }
  const url = new URL(serverUrl.href);
  url.pathname = `/${name}`;
  const database = {
    url: url.href,
    dialect,
    name,
    drop: async () => {
      const c = await mysql.createConnection(adminUrl.href);
      try {
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        liveDatabases.delete(database);
      } finally {
        await c.end();
      }
    },
  };
  liveDatabases.add(database);
  return database;
}

/** A database created on the PostgreSQL server (UTF-8, as Vexil creates one) and dropped by drop(). */
async function createPostgresDatabase() {
  const name = `vexil_bench_${process.pid}_${++dbCounter}`;
  await onPostgresServer(`CREATE DATABASE "${name}" ENCODING 'UTF8' TEMPLATE template0`);
  const url = new URL(postgresServerUrl());
  url.pathname = `/${name}`;
  const database = {
    url: url.href,
    dialect: 'postgres',
    name,
    drop: async () => {
      // WITH (FORCE): a connection the stopped server left behind does not keep the database.
      await onPostgresServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      liveDatabases.delete(database);
    },
  };
  liveDatabases.add(database);
  return database;
}

/**
 * A three-node Galera cluster of the run's own (lib/galera-cluster.ts, the test harness, run
 * with tsx in a child process) and a database on it; Vexil gets every node in DATABASE_URL.
 * drop() stops the cluster and removes its data. NotAvailable when Galera cannot run here.
 */
async function createGaleraDatabase(label) {
  const cluster = await startGaleraCluster(label);
  const name = `vexil_bench_${process.pid}_${++dbCounter}`;
  const database = {
    url: `mysql://root@${cluster.hostList}/${name}`,
    dialect: 'galera',
    name,
    drop: async () => {
      await cluster.stop();
      liveDatabases.delete(database);
    },
  };
  liveDatabases.add(database);
  try {
    const { default: mysql } = await import('mysql2/promise');
    const conn = await mysql.createConnection(`mysql://root@127.0.0.1:${cluster.ports[0]}/`);
    try {
      await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    } finally {
      await conn.end();
    }
  } catch (error) {
    await database.drop();
    throw error;
  }
  return database;
}

/** Whether a MySQL server answers at the configured URL. */
export async function mysqlReachable() {
  try {
    const { default: mysql } = await import('mysql2/promise');
    const url = new URL(mysqlServerUrl());
    url.pathname = '/';
    const conn = await mysql.createConnection({ uri: url.href, connectTimeout: 3000 });
    await conn.end();
    return true;
  } catch {
    return false;
  }
}

async function waitForHttp(baseUrl, child, pathname, timeoutMs) {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited with code ${child.exitCode}`);
    try {
      const res = await fetch(baseUrl + pathname);
      await res.arrayBuffer();
      return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`no answer on ${baseUrl}${pathname} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Every child process started here and not yet stopped (killed if the run is interrupted). */
export const running = new Set();

/** A started process: { pid, baseUrl, port, memory(), stop(), log }. */
function handle(child, baseUrl, port, logFile, onStop) {
  running.add(child);
  child.once('exit', () => running.delete(child));
  let exited = child.exitCode !== null;
  const exit = new Promise((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  return {
    pid: child.pid,
    baseUrl,
    port,
    log: logFile,
    memory: () => memoryOf(child.pid),
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exit;
        clearTimeout(timer);
      }
      await onStop?.();
    },
  };
}

/**
 * Starts `node dist/src/main.js` on a fresh database. Returns the handle plus the owner token,
 * the database description, and `stop()` which also drops the database (unless keepDatabase).
 */
export async function startVexil({ label, dialect = 'sqlite', database, env = {}, keepDatabase = false } = {}) {
  const mainJs = path.join(DIST, 'src', 'main.js');
  if (!fs.existsSync(mainJs)) throw new Error('dist/src/main.js is missing: run `make build` first');
  const db = database ?? (await createDatabase(dialect, label));
  const port = await freePort();
  const ownerToken = env.VEXIL_INIT_OWNER_TOKEN ?? secret('pat_');
  const logDir = path.join(BENCH_DIR, 'results', 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${label}.log`);
  const out = fs.openSync(logFile, 'w');
  // As `make start` runs the server (its young generation setting: docs/operating.md, Memory).
  const nodeArgs = ['--max-semi-space-size=8'];
  if (settings.profile) {
    const dir = path.join(BENCH_DIR, 'results', 'profiles');
    fs.mkdirSync(dir, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', `${label}.cpuprofile`);
  }
  const child = spawn(serverNode, [...nodeArgs, mainJs], {
    cwd: ROOT,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      VEXIL_INIT_OWNER_TOKEN: ownerToken,
      VEXIL_PUBLIC_RATE_LIMIT: '0',
      VEXIL_RATE_LIMIT_STANDARD: '100000000',
      VEXIL_RATE_LIMIT_ELEVATED: '100000000',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
      NODE_ENV: 'production',
      ...env,
    },
  });
  fs.closeSync(out);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(baseUrl, child, '/v1/api-docs', 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    if (!keepDatabase) await db.drop().catch(() => {});
    const logTail = tail(logFile);
    const reason = logTail.split('\n').find((l) => /error/i.test(l)) ?? error.message;
    process.stderr.write(`Vexil (${label}) did not start: ${error.message}\n${logTail}\n`);
    throw new NotAvailable(`the server did not start (${reason.trim().slice(0, 200)})`);
  }
  const h = handle(child, baseUrl, port, logFile, keepDatabase ? undefined : () => db.drop().catch(() => {}));
  return { ...h, ownerToken, database: db };
}

/**
 * Starts a baseline server process (bench/baselines/<kind>.mjs) answering `route` with the
 * exact status, headers and body bytes given.
 */
export async function startBaseline(kind, route) {
  const port = await freePort();
  const specFile = path.join(tempDir('baselines'), `${kind}-${port}.json`);
  fs.writeFileSync(
    specFile,
    JSON.stringify({
      method: route.method,
      path: route.path,
      status: route.status,
      headers: route.headers,
      body: Buffer.from(route.body ?? '').toString('base64'),
    }),
  );
  const script = path.join(BENCH_DIR, 'baselines', `${kind}.mjs`);
  const child = spawn(serverNode, [script, specFile, String(port)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(baseUrl, child, '/__ready', 20_000);
  return handle(child, baseUrl, port, undefined, () => fs.rmSync(specFile, { force: true }));
}
