import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

// The real entry point as `make start` runs it (through tsx's loader instead of the build): first
// start, one structured log line per management request without secrets, graceful stop on SIGTERM.
describe('the server process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-process-'));
  const port = serverPort();
  let child: ChildProcess | undefined;
  let stdout = '';

  afterAll(() => {
    child?.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the first-start secrets once, logs requests without secrets and stops on SIGTERM', async () => {
    requireFreshBuild();
    child = spawn(process.execPath, [builtServer], {
      env: { ...process.env, DATABASE_URL: `sqlite:${dir}/vexil.db`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));

    let ready = false;
    for (let i = 0; i < 150 && !ready; i++) {
      await new Promise((r) => setTimeout(r, 200));
      // The port is taken before first start runs: wait for its message too.
      ready =
        /srv_[0-9A-Za-z]{32,}/.test(stdout) &&
        (await fetch(`http://127.0.0.1:${port}/v1/api-docs`).then(
          (r) => r.ok,
          () => false,
        ));
    }
    expect(ready).toBe(true);

    const token = /pat_[0-9A-Za-z]{32,}/.exec(stdout)?.[0];
    // The console's temporary password is printed with the token: it only lets the owner choose their own.
    const password =
      /sign in as owner@vexil\.local\n +with the temporary password ([0-9A-Za-z]{20})\n +\(it only lets you choose your own password, until \d{4}-/.exec(
        stdout,
      )?.[1];
    expect(password).toBeDefined();
    expect(stdout).toContain(`Web console: open http://127.0.0.1:${port}/ and sign in as owner@vexil.local`);
    const signIn = await fetch(`http://127.0.0.1:${port}/management/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@vexil.local', password }),
    });
    expect(signIn.status).toBe(200);
    expect(((await signIn.json()) as { data: { password_change_required: boolean } }).data.password_change_required).toBe(true);
    const sessionCookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const refused = await fetch(`http://127.0.0.1:${port}/management/v1/projects`, { headers: { cookie: sessionCookie } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('password_change_required');
    const serverKey = /srv_[0-9A-Za-z]{32,}/.exec(stdout)?.[0];
    expect(token).toBeDefined();
    expect(serverKey).toBeDefined();
    const projects = await fetch(`http://127.0.0.1:${port}/management/v1/projects`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'client-chosen.management' },
    });
    expect(projects.status).toBe(200);
    const body = (await projects.json()) as { data: Array<{ key: string }> };
    expect(body.data.map((p) => p.key)).toEqual(['demo']);
    const flags = await fetch(`http://127.0.0.1:${port}/v1/flags`, { headers: { 'x-vexil-api-key': serverKey as string } });
    expect(flags.status).toBe(200);
    // Request ids: a new one, or the client's own; the request's log line carries the one answered.
    const newId = flags.headers.get('x-request-id');
    expect(newId).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await fetch(`http://127.0.0.1:${port}/v1/flags/no-such-flag`, {
      headers: { 'x-vexil-api-key': serverKey as string, 'x-request-id': 'client-chosen.id_1' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBe('client-chosen.id_1');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    // Secrets appear exactly once each (the first-start message); the log lines never carry them.
    expect(stdout.split(token as string).length - 1).toBe(1);
    expect(stdout.split(serverKey as string).length - 1).toBe(1);
    expect(stdout.split(password as string).length - 1).toBe(1);
    const logLines = stdout.split('\n').filter((line) => line.startsWith('{'));
    const requestLines = logLines.filter((line) => line.includes('"msg":"request"'));
    const logged = requestLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ requestId: 'client-chosen.management', method: 'GET', path: '/management/v1/projects', status: 200 }),
    );
    // By default the public API's requests get no line (VEXIL_REQUEST_LOG): the audit trail records them.
    expect(logged.filter((line) => String(line.path).startsWith('/v1/'))).toEqual([]);
    expect(stdout).not.toContain(newId as string);
    expect(logged.every((line) => typeof line.requestId === 'string' && line.requestId !== '')).toBe(true);
    expect(logLines.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  }, 60_000);
});
