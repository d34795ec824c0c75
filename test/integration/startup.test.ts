import { spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real entry point (as `make start` does, through tsx) until it exits, `timeoutMs`
 * passes, or its output matches `until` (then it is stopped with SIGTERM).
 */
export function runVexil(env: Record<string, string>, timeoutMs = 30_000, until?: RegExp): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['src/main.ts'], {
      env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The output of a refused start: one line on stderr, no stack trace. */
export function expectOneClearLine(run: Run, pattern: RegExp): void {
  expect(run.code, run.stdout + run.stderr).not.toBe(0);
  expect(run.code).not.toBeNull();
  const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr + run.stdout).not.toMatch(/\n\s+at /);
}

describe('a start refused for a reason the operator can fix', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-startup-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops at an invalid setting with one line naming it, before touching the database', async () => {
    const run = await runVexil({ DATABASE_URL: `sqlite:${dir}/settings/vexil.db`, PORT: '0', VEXIL_TRUST_PROXY: 'yes' });
    expectOneClearLine(run, /^Vexil cannot start: VEXIL_TRUST_PROXY must be true or false .*got "yes"$/);
    expect(fs.existsSync(`${dir}/settings`)).toBe(false);
  }, 40_000);

  it('logs whether Redis is connected', async () => {
    const port = String(30000 + Math.floor(Math.random() * 20000));
    const base = { DATABASE_URL: `sqlite:${dir}/redis/vexil.db`, PORT: port };
    const connected = await runVexil({ ...base, REDIS_URL: 'redis://127.0.0.1:6379' }, 30_000, /Redis connected/);
    expect(connected.stdout).toContain('"channel":"vexil:environment-revisions","msg":"Redis connected');
    const unreachable = await runVexil({ ...base, REDIS_URL: 'redis://127.0.0.1:1' }, 30_000, /Redis change notifications unavailable/);
    expect(unreachable.stdout).toContain('Redis change notifications unavailable; polling continues');
    const none = await runVexil(base, 30_000, /Vexil is listening/);
    expect(none.stdout).toMatch(/"redis":"not configured".*"msg":"Vexil is listening"/);
  }, 100_000);

  it('stops at a port in use on first start with one line, and keeps the first start for the next one', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = String((blocker.address() as net.AddressInfo).port);
    const base = { DATABASE_URL: `sqlite:${dir}/port/vexil.db` };
    let refused: Run;
    try {
      refused = await runVexil({ ...base, PORT: port });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expectOneClearLine(refused, new RegExp(`^Vexil cannot start: port ${port} is already in use`));
    expect(refused.stdout).not.toMatch(/pat_|srv_/);
    // The database holds no owner yet: the next start is the first start, and shows the secrets.
    const started = await runVexil({ ...base, PORT: port }, 30_000, /Vexil is listening/);
    expect(started.stdout).toMatch(/pat_[0-9A-Za-z]{32,}/);
    expect(started.stdout).toMatch(/srv_[0-9A-Za-z]{32,}/);
  }, 80_000);
});
