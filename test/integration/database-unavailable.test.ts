import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { PausableProxy } from '../support/pausable-proxy.js';

const mariadb = testDatabases.find((db) => db.name === 'mariadb');
const mysqlBase = new URL(process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306');

/**
 * A hung database (a proxy in front of MariaDB that stops forwarding): management requests get a
 * 503 with Retry-After within the configured timeouts and change nothing, evaluation keeps
 * serving from memory, and everything works again once the database answers.
 */
describe.runIf(mariadb)('a hung database', () => {
  const proxy = new PausableProxy(mysqlBase.hostname, Number(mysqlBase.port || 3306));
  const port = 30000 + Math.floor(Math.random() * 20000);
  const base = `http://127.0.0.1:${port}`;
  const acquireMs = 1000;
  const queryMs = 1500;
  let database: { url: string; drop(): Promise<void> };
  let child: ChildProcess | undefined;
  let stdout = '';
  let token = '';
  let serverKey = '';

  const management = (method: string, route: string, body?: unknown) =>
    fetch(`${base}/management/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });

  beforeAll(async () => {
    database = await mariadb!.create();
    const name = new URL(database.url).pathname.slice(1);
    const proxyPort = await proxy.start();
    const proxied = new URL(mysqlBase);
    proxied.port = String(proxyPort);
    proxied.pathname = `/${name}`;
    child = spawn(path.resolve('node_modules/.bin/tsx'), ['src/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: proxied.toString(),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        VEXIL_DB_ACQUIRE_TIMEOUT_MS: String(acquireMs),
        VEXIL_DB_QUERY_TIMEOUT_MS: String(queryMs),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    for (let i = 0; i < 150 && !stdout.includes('srv_'); i++) await new Promise((r) => setTimeout(r, 200));
    token = /pat_[0-9A-Za-z]{32,}/.exec(stdout)?.[0] ?? '';
    serverKey = /srv_[0-9A-Za-z]{32,}/.exec(stdout)?.[0] ?? '';
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${base}/v1/api-docs`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  afterAll(async () => {
    proxy.resume();
    child?.kill('SIGKILL');
    await proxy.stop();
    await database?.drop();
  });

  it('answers 503 with Retry-After within the timeouts, writes nothing, and recovers', async () => {
    expect((await management('GET', '/projects')).status).toBe(200);
    expect((await fetch(`${base}/v1/flags`, { headers: { 'x-vexil-api-key': serverKey } })).status).toBe(200);

    proxy.pause();
    try {
      for (const [method, route, body] of [
        ['GET', '/projects', undefined],
        ['POST', '/projects', { key: 'during-outage', name: 'During outage' }],
        ['GET', '/projects/demo/flags', undefined],
      ] as const) {
        const started = Date.now();
        const res = await management(method, route, body);
        const elapsed = Date.now() - started;
        expect(res.status, `${method} ${route}`).toBe(503);
        expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
        expect(res.headers.get('content-type')).toContain('application/json');
        const payload = (await res.json()) as Record<string, unknown>;
        expect(payload.status).toBe('error');
        expect(payload.message).toMatch(/database is unavailable/);
        // Waiting for a connection plus one query at most, and some slack for the machine.
        expect(elapsed, `${method} ${route}`).toBeLessThan(acquireMs + queryMs + 1500);
      }
      // Evaluation is served from memory meanwhile.
      const flags = await fetch(`${base}/v1/flags`, { headers: { 'x-vexil-api-key': serverKey } });
      expect(flags.status).toBe(200);
    } finally {
      proxy.resume();
    }

    // Once the database answers again, so does the API; the write refused during the outage left nothing.
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      recovered = (await management('GET', '/projects')).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(recovered).toBe(200);
    const projects = (await (await management('GET', '/projects')).json()) as { data: Array<{ key: string }> };
    expect(projects.data.map((p) => p.key)).toEqual(['demo']);
    expect((await management('POST', '/projects', { key: 'after-outage', name: 'After outage' })).status).toBe(200);
  }, 60_000);
});
