import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { builtServer, requireFreshBuild } from './built.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built entry point (as `make start` does) until it exits, `timeoutMs`
 * passes, or its output matches `until` (then it is stopped with SIGTERM).
 */
export function runVexil(env: Record<string, string>, timeoutMs = 30_000, until?: RegExp): Promise<Run> {
  return new Promise((resolve) => {
    requireFreshBuild();
    const child = spawn(process.execPath, [builtServer], {
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
