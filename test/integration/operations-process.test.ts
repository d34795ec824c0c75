import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { testDatabases } from '../support/databases.js';
import { PausableProxy } from '../support/pausable-proxy.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

/** /ready answers 503 naming the database as the one thing not ready. */
async function expectDatabaseNamed(port: number): Promise<void> {
  const notReady = await fetch(`http://127.0.0.1:${port}/ready`);
  expect(notReady.status).toBe(503);
  const { database_host: host, ...answer } = (await notReady.json()) as { database_host?: { hosts: string[] } };
  expect(answer).toEqual({
    status: 'not_ready',
    checks: { database: false, snapshots: true, accepting_traffic: true },
    redis: 'not_configured',
    reasons: ['database unreachable'],
  });
  // MySQL/MariaDB name the host in use (one here); SQLite has no host.
  if (host !== undefined) expect(host.hosts).toHaveLength(1);
}

const ownerToken = `pat_${'q'.repeat(40)}`;

/** The real server (src/main.ts) as a process; `logLines()` are the JSON lines it has written. */
function start(env: Record<string, string>): {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  logLines(): Array<Record<string, unknown>>;
} {
  const port = serverPort();
  requireFreshBuild();
  const child = spawn(process.execPath, [builtServer], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', VEXIL_INIT_OWNER_TOKEN: ownerToken, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const logLines = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, port, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))), logLines };
}

async function waitUntil(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const status = (port: number, route: string) =>
  fetch(`http://127.0.0.1:${port}${route}`).then(
    (r) => r.status,
    () => 0,
  );

/** A server key for a new project of the running process (management API with the owner token). */
async function createServerKey(port: number): Promise<string> {
  const management = (route: string, body: unknown) =>
    fetch(`http://127.0.0.1:${port}/management/v1${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { key: string } } }));
  expect((await management('/projects', { key: 'drain', name: 'Drain' })).status).toBe(200);
  const created = await management('/projects/drain/environments/production/keys', { kind: 'server' });
  expect(created.status).toBe(200);
  return created.body.data.key;
}

/**
 * A POST whose body arrives in two parts: the request stays open between them. finish() sends
 * the rest and resolves with the raw response.
 */
function slowRequest(port: number, route: string, headers: Record<string, string>, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk.toString('utf8')));
  const ended = new Promise<string>((resolve, reject) => {
    socket.once('close', () => resolve(response));
    socket.once('error', reject);
  });
  const head = [
    `POST ${route} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  const split = Math.floor(body.length / 2);
  const opened = new Promise<void>((resolve) =>
    socket.once('connect', () => socket.write(`${head.join('\r\n')}\r\n\r\n${body.slice(0, split)}`, () => resolve())),
  );
  return {
    opened,
    finish: async () => {
      socket.write(body.slice(split));
      return ended;
    },
  };
}

// The drain and a database outage, with a real process.
describe('readiness of a real process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-ops-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('on SIGTERM answers 503 on /ready at once, keeps serving for the drain period, then exits 0', async () => {
    const server = start({ DATABASE_URL: `sqlite:${dir}/drain.db`, VEXIL_DRAIN_MS: '1500' });
    await waitUntil(async () => (await status(server.port, '/ready')) === 200, 120_000);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await waitUntil(async () => (await status(server.port, '/ready')) === 503, 1000);
    expect(await status(server.port, '/health')).toBe(200);
    expect(await status(server.port, '/v1/api-docs')).toBe(200);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1400);
  }, 180_000);

  it.each(testDatabases)(
    'writes the public audit entries of requests served during the drain and of one still open when it ends, ends event streams, then exits 0 ($name)',
    async (db) => {
      const database = await db.create();
      const server = start({ DATABASE_URL: database.url, VEXIL_DRAIN_MS: '1000' });
      try {
        await waitUntil(async () => (await status(server.port, '/ready')) === 200, 120_000);
        const apiKey = await createServerKey(server.port);
        const headers = { 'x-vexil-api-key': apiKey };
        await waitUntil(async () => (await fetch(`http://127.0.0.1:${server.port}/v1/flags`, { headers })).status === 200, 5000);
        const slow = slowRequest(
          server.port,
          '/v1/flags/evaluate',
          headers,
          JSON.stringify({ context: { type: 'user', identifier: 'draining-user' } }),
        );
        await slow.opened;
        const stream = await fetch(`http://127.0.0.1:${server.port}/v1/stream`, { headers });
        expect(stream.status).toBe(200);
        const streamEnded = stream.text().then(() => Date.now());

        server.child.kill('SIGTERM');
        await waitUntil(async () => (await status(server.port, '/ready')) === 503, 1000);
        // Served during the drain.
        const during = await fetch(`http://127.0.0.1:${server.port}/v1/flags/during-drain`, { headers });
        expect(during.status).toBe(404);
        // The drain is over once the port refuses new connections; the slow request is still open.
        await waitUntil(async () => (await status(server.port, '/health')) === 0, 10_000);
        const closing = Date.now();
        const answer = await slow.finish();
        expect(answer).toMatch(/^HTTP\/1\.1 200 /);
        expect(await server.exited).toBe(0);
        // The server ended the stream; it was not cut off 5 s into the close.
        expect(await streamEnded).toBeLessThan(closing + 4000);

        const { knex } = openDatabase(database.url);
        try {
          const rows: Array<{ http_method: string; http_path: string; action: string; status_code: number }> = await knex(
            'public_audit_entries',
          )
            .whereIn('http_path', ['/v1/flags/during-drain', '/v1/flags/evaluate'])
            .orderBy('http_path')
            .select('http_method', 'http_path', 'action', 'status_code');
          expect(rows.map((row) => ({ ...row, status_code: Number(row.status_code) }))).toEqual([
            { http_method: 'GET', http_path: '/v1/flags/during-drain', action: 'flag.evaluated', status_code: 404 },
            { http_method: 'POST', http_path: '/v1/flags/evaluate', action: 'flag.evaluated', status_code: 200 },
          ]);
        } finally {
          await knex.destroy();
        }
      } finally {
        server.child.kill('SIGKILL');
        await server.exited;
        await database.drop();
      }
    },
    90_000,
  );

  it.skipIf(!testDatabases.some((d) => d.name === 'mariadb'))(
    'turns /ready to 503 within a second of the database hanging, and back by itself; each probe answers within a second, the database hung or stopped',
    async () => {
      const name = `vexil_ops_${randomBytes(4).toString('hex')}`;
      const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
      const url = new URL(mysqlBase);
      const proxy = new PausableProxy(url.hostname, Number(url.port || 3306));
      const proxyPort = await proxy.start();
      const server = start({ DATABASE_URL: `mysql://root@127.0.0.1:${proxyPort}/${name}`, LOG_LEVEL: 'info' });
      try {
        await waitUntil(async () => (await status(server.port, '/ready')) === 200, 120_000);
        proxy.pause();
        const paused = Date.now();
        await waitUntil(async () => (await status(server.port, '/ready')) === 503, 3000);
        expect(Date.now() - paused).toBeLessThan(2500);
        // The answer names the database, and only it.
        await expectDatabaseNamed(server.port);
        // A request that needs the database gets a 503; its log lines carry the id it was answered with.
        const refused = await fetch(`http://127.0.0.1:${server.port}/management/v1/projects`, {
          headers: { authorization: `Bearer ${ownerToken}` },
        });
        expect(refused.status).toBe(503);
        const requestId = refused.headers.get('x-request-id');
        expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
        await waitUntil(async () => server.logLines().some((line) => line.msg === 'request' && line.requestId === requestId), 2000);
        expect(server.logLines().filter((line) => line.requestId === requestId)).toEqual([
          expect.objectContaining({ msg: 'database unavailable', requestId, method: 'GET', path: '/management/v1/projects' }),
          expect.objectContaining({ msg: 'request', requestId, method: 'GET', path: '/management/v1/projects', status: 503 }),
        ]);
        proxy.resume();
        await waitUntil(async () => (await status(server.port, '/ready')) === 200, 10_000);

        // Every probe answers within a second, whether the database hangs or is stopped (refuses connections).
        const timedReady = async () => {
          const started = performance.now();
          const answer = await status(server.port, '/ready');
          return { answer, ms: performance.now() - started };
        };
        proxy.pause();
        for (let i = 0; i < 3; i++) {
          const { answer, ms } = await timedReady();
          expect(answer).toBe(503);
          expect(ms).toBeLessThan(1000);
        }
        await proxy.stop();
        for (let i = 0; i < 3; i++) {
          const { answer, ms } = await timedReady();
          expect(answer).toBe(503);
          expect(ms).toBeLessThan(1000);
        }
        await expectDatabaseNamed(server.port);
        expect(await status(server.port, '/health')).toBe(200);
        // Connections the pool could not open are counted.
        const metrics = await fetch(`http://127.0.0.1:${server.port}/metrics`).then((r) => r.text());
        expect(sampleValue(parseExposition(metrics), 'vexil_db_query_errors_total', { operation: 'connect' })).toBeGreaterThan(0);
      } finally {
        server.child.kill('SIGKILL');
        await server.exited;
        await proxy.stop();
        const admin = knexFactory({ client: 'mysql2', connection: { uri: mysqlBase } as never });
        await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => admin.destroy());
      }
    },
    90_000,
  );
});
