import { spawn, type ChildProcess } from 'node:child_process';
import { builtCli, requireFreshBuild } from '../support/built.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The built command (`make build`), as `npx vexil` runs it: a third of the start-up time of one
// compiled through tsx, and the tests run dozens.
const command = [process.execPath, builtCli];

/** Starts `vexil ARGS` as its own process. */
export function startCli(args: string[], env: Record<string, string | undefined>, stdin?: string): ChildProcess {
  requireFreshBuild();
  const child = spawn(command[0] as string, [...command.slice(1), ...args], {
    // Only what the test gives: no VEXIL_* from the developer's shell, no terminal.
    env: { PATH: process.env.PATH, HOME: env.HOME ?? '/nonexistent', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // A command that ends without reading its standard input (--help) closes the pipe first: the
  // write then fails with EPIPE, which says nothing about the command.
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
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

/** A word for `sh -c`, quoted so the shell passes it on unchanged. */
const shellWord = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `vexil ARGS` on a pseudo-terminal, as a person at a terminal runs it: util-linux `script`
 * gives the command a terminal for standard output and error, both recorded in `output` (in the
 * order written; the terminal's "\r\n" line ends turned back into "\n").
 */
export function runCliInTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<{ code: number | null; output: string }> {
  requireFreshBuild();
  const line = [...command, ...args].map(shellWord).join(' ');
  // -q: no banner, -e: the command's exit code, -f: flush as written; the record goes nowhere.
  const child = spawn('script', ['-qefc', line, '/dev/null'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: env.HOME ?? '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: null, output: `${output}${String(error)}` }));
    child.on('close', (code) => resolve({ code, output: output.replace(/\r\n/g, '\n') }));
  });
}
