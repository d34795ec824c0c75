import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { PausableProxy } from '../support/pausable-proxy.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';

function start(env: Record<string, string>): { child: ChildProcess; port: number; exited: Promise<number | null> } {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', VEXIL_INIT_OWNER_TOKEN: `pat_${'q'.repeat(40)}`, ...env },
    stdio: 'ignore',
  });
  return { child, port, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

async function waitUntil(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const status = (port: number, route: string) => fetch(`http://127.0.0.1:${port}${route}`).then((r) => r.status, () => 0);

// The drain and a database outage, with a real process.
describe('readiness of a real process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-ops-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('on SIGTERM answers 503 on /ready at once, keeps serving for the drain period, then exits 0', async () => {
    const server = start({ DATABASE_URL: `sqlite:${dir}/drain.db`, VEXIL_DRAIN_MS: '1500' });
    await waitUntil(async () => (await status(server.port, '/ready')) === 200, 20_000);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await waitUntil(async () => (await status(server.port, '/ready')) === 503, 1000);
    expect(await status(server.port, '/health')).toBe(200);
    expect(await status(server.port, '/v1/api-docs')).toBe(200);
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1400);
  }, 60_000);

  it.skipIf(!testDatabases.some((d) => d.name === 'mariadb'))('turns /ready to 503 within a second of the database hanging, and back by itself; each probe answers within a second, the database hung or stopped', async () => {
    const name = `vexil_ops_${randomBytes(4).toString('hex')}`;
    const mysqlBase = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
    const url = new URL(mysqlBase);
    const proxy = new PausableProxy(url.hostname, Number(url.port || 3306));
    const proxyPort = await proxy.start();
    const server = start({ DATABASE_URL: `mysql://root@127.0.0.1:${proxyPort}/${name}` });
    try {
      await waitUntil(async () => (await status(server.port, '/ready')) === 200, 30_000);
      proxy.pause();
      const paused = Date.now();
      await waitUntil(async () => (await status(server.port, '/ready')) === 503, 3000);
      expect(Date.now() - paused).toBeLessThan(2500);
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
  }, 90_000);
});
