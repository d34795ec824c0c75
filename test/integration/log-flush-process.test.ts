import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

/** GET `url` with `headers` on a keep-alive agent; resolves with the status. */
function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
  });
}

// Log lines are written asynchronously (src/logger.ts): a clean stop writes every one before the
// process exits, even those logged in the last moments before SIGTERM.
describe('the log of a server stopped cleanly', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-log-flush-'));
  const port = serverPort();
  let child: ChildProcess | undefined;

  afterAll(() => {
    child?.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds one line per request answered, and the stop line last', async () => {
    requireFreshBuild();
    let stdout = '';
    child = spawn(process.execPath, [builtServer], {
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${dir}/vexil.db`,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        VEXIL_REQUEST_LOG: 'all',
        VEXIL_PUBLIC_RATE_LIMIT: '0',
        VEXIL_DRAIN_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
    let ready = false;
    for (let i = 0; i < 150 && !ready; i++) {
      await new Promise((r) => setTimeout(r, 200));
      ready = /"msg":"Vexil is listening"/.test(stdout);
    }
    expect(ready).toBe(true);
    const serverKey = /srv_[0-9A-Za-z]{32,}/.exec(stdout)?.[0] as string;
    expect(serverKey).toBeDefined();

    // Many requests at once on 16 connections, answered in front of Koa and through it (a query
    // string), then SIGTERM as soon as the last is answered: their lines are the last logged.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const ids = Array.from({ length: 3000 }, (_, i) => `flush-${i}`);
    const statuses = await Promise.all(
      ids.map((id, i) =>
        get(agent, `http://127.0.0.1:${port}/v1/flags${i % 2 === 0 ? '' : '?via=koa'}`, {
          'x-vexil-api-key': serverKey,
          'x-request-id': id,
        }),
      ),
    );
    child.kill('SIGTERM');
    agent.destroy();
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(await exited).toBe(0);

    const lines = stdout.split('\n').filter((line) => line.startsWith('{'));
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; requestId?: string; path?: string });
    const requestIds = logged
      .filter((line) => line.msg === 'request' && line.requestId?.startsWith('flush-'))
      .map((line) => line.requestId);
    expect(requestIds.length).toBe(ids.length);
    expect(new Set(requestIds)).toEqual(new Set(ids));
    expect(logged.at(-1)?.msg).toBe('stopped');
  }, 90_000);
});
