import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { openDatabase } from '../../src/storage/database.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { describeEachDatabase } from '../support/databases.js';
import { serverPort } from '../support/ports.js';

/**
 * The public audit's durability bound (docs/operating.md): a request answered more than the flush
 * interval plus the time of two writes before a kill -9 has its entry written. Two writes are
 * given a second here, generous on a shared machine; the bound asserted is the interval plus that.
 */
const WRITES_MS = 1000;

describeEachDatabase('the public audit across a kill -9', (db) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-audit-kill-'));
  const children: ChildProcess[] = [];
  const databases: Array<{ url: string; drop(): Promise<void> }> = [];

  beforeAll(() => requireFreshBuild());
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const database of databases) await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(url: string, port: number, flushMs: number, token: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, [builtServer], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        VEXIL_INIT_OWNER_TOKEN: token,
        VEXIL_PUBLIC_RATE_LIMIT: '0',
        VEXIL_PUBLIC_AUDIT_FLUSH_MS: String(flushMs),
      },
      stdio: 'ignore',
    });
    children.push(child);
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      if (
        await fetch(`http://127.0.0.1:${port}/v1/api-docs`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return child;
    }
    throw new Error('server did not start');
  }

  /** Runs requests of unique paths on 8 connections for `ms`; each answer's path and time (ms since the epoch). */
  async function load(port: number, serverKey: string, ms: number): Promise<Map<string, number>> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const answered = new Map<string, number>();
    const until = Date.now() + ms;
    let next = 0;
    const worker = async () => {
      while (Date.now() < until) {
        const route = `/v1/flags/probe-${next++}`;
        await new Promise<void>((resolve, reject) => {
          http
            .get(`http://127.0.0.1:${port}${route}`, { agent, headers: { 'x-vexil-api-key': serverKey } }, (res) => {
              res.resume();
              res.on('end', () => {
                // 404: the flag does not exist; answered (and audited) all the same.
                if (res.statusCode === 404) answered.set(route, Date.now());
                resolve();
              });
            })
            .on('error', reject);
        });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    agent.destroy();
    return answered;
  }

  for (const flushMs of [1000, 100]) {
    it(`writes every entry answered more than ${flushMs} ms plus two writes before the kill (VEXIL_PUBLIC_AUDIT_FLUSH_MS=${flushMs})`, async () => {
      const database = db.name === 'sqlite' ? { url: `sqlite:${dir}/audit-${flushMs}.db`, drop: async () => {} } : await db.create();
      databases.push(database);
      const port = serverPort();
      const token = generateSecret('pat_');
      const child = await start(database.url, port, flushMs, token);
      const api = (method: string, route: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${port}/management/v1${route}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      expect((await api('POST', '/projects', { key: 'kill', name: 'Kill' })).status).toBe(200);
      const key = await api('POST', '/projects/kill/environments/production/keys', { kind: 'server' });
      const serverKey = ((await key.json()) as { data: { key: string } }).data.key;

      const answered = await load(port, serverKey, 2500);
      const killedAt = Date.now();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;

      const { knex } = openDatabase(database.url);
      try {
        const rows: Array<{ http_path: string }> = await knex('public_audit_entries')
          .where('http_path', 'like', '/v1/flags/probe-%')
          .select('http_path');
        const written = new Set(rows.map((row) => row.http_path));
        const lost = [...answered].filter(([route]) => !written.has(route));
        const bound = flushMs + WRITES_MS;
        // Nothing answered before the bound is lost; what is lost was answered within it.
        expect(lost.filter(([, at]) => killedAt - at > bound)).toEqual([]);
        // Written entries were all answered (no entry of a request that was not).
        expect([...written].every((route) => answered.has(route) || route.startsWith('/v1/flags/probe-'))).toBe(true);
        expect(answered.size).toBeGreaterThan(100);
        process.stdout.write(
          `[${db.name}] VEXIL_PUBLIC_AUDIT_FLUSH_MS=${flushMs}: ${answered.size} answered in 2.5 s, ${lost.length} lost at kill -9, the oldest lost answered ${lost.length ? Math.max(...lost.map(([, at]) => killedAt - at)) : 0} ms before it\n`,
        );
      } finally {
        await knex.destroy();
      }
    }, 120_000);
  }
});
