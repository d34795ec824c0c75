import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const tsx = path.resolve('node_modules/.bin/tsx');
const entry = path.resolve('cli/src/main.ts');

/** Starts `vexil ARGS` as its own process (through tsx, so no build is needed). */
export function startCli(args: string[], env: Record<string, string | undefined>, stdin?: string): ChildProcess {
  const child = spawn(tsx, [entry, ...args], {
    // Only what the test gives: no VEXIL_* from the developer's shell, no terminal.
    env: { PATH: process.env.PATH, HOME: env.HOME ?? '/nonexistent', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin?.end(stdin ?? '');
  return child;
}

/** Runs `vexil ARGS` to completion. */
export function runCli(args: string[], env: Record<string, string | undefined>, stdin?: string): Promise<CliResult> {
  const child = startCli(args, env, stdin);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
