import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Node with tsx's loader: one process per command (the tsx command would start a second one).
const tsxLoader = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;
const command = [process.execPath, '--import', tsxLoader, path.resolve('cli/src/main.ts')];

/** Starts `vexil ARGS` as its own process (through tsx, so no build is needed). */
export function startCli(args: string[], env: Record<string, string | undefined>, stdin?: string): ChildProcess {
  const child = spawn(command[0] as string, [...command.slice(1), ...args], {
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
