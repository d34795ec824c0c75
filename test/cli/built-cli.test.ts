import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { CliResult } from './run-cli.js';

const built = path.resolve('dist/cli/src/main.js');
/** npx as the user's shell finds it (npm's, running on the node first on PATH). */
const npx = 'npx';
const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

/** The newest modification time of the files under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Runs a program to completion with only the environment given (no VEXIL_* of the developer's shell). */
function run(file: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(file, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: null, stdout, stderr: stderr + String(error) }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// The vexil command as `make build` leaves it and a user runs it: `npx vexil`, or the file itself.
describe('the built vexil command', () => {
  let app: TestApp;
  let home: string;
  let env: Record<string, string>;
  const projectKey = `built-${Date.now().toString(36)}`;

  beforeAll(async () => {
    if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < Math.max(newest('cli/src'), newest('generated'))) {
      throw new Error('dist/cli is missing or older than cli/src: run `make build` first (`make test` does).');
    }
    app = await startTestApp(testDatabases[0]!);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-built-cli-'));
    // npx keeps its cache under HOME; the command keeps its login under XDG_CONFIG_HOME.
    env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config') };
    const project = await app.mgmt('POST', '/projects', {
      key: projectKey,
      name: 'Built CLI',
      environments: [{ key: 'production', name: 'Production' }],
    });
    expect(project.status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('is an executable file with a node shebang', () => {
    expect(fs.readFileSync(built, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(fs.statSync(built).mode & 0o111).not.toBe(0);
  });

  it('runs by itself and through npx: --version, --help, and exit code 64 for wrong usage', async () => {
    for (const [file, prefix] of [
      [built, []],
      [npx, ['vexil']],
    ] as const) {
      const shown = await run(file, [...prefix, '--version'], env);
      expect(shown, file).toEqual({ code: 0, stdout: `vexil ${version}\n`, stderr: '' });
      const help = await run(file, [...prefix, '--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: vexil <command> \[options\]/);
      expect(help.stdout).toContain('apply');
      const wrong = await run(file, [...prefix, 'projects', 'list', '--colour'], env);
      expect(wrong.code).toBe(64);
      expect(wrong.stderr).toMatch(/^vexil: .*--colour/);
    }
  });

  it('talks to a running server: JSON for scripts, the API message and exit 1 on an error, exit 2 for a plan with changes', async () => {
    const connected = { ...env, VEXIL_URL: app.baseUrl, VEXIL_TOKEN: app.ownerToken };
    const projects = await run(npx, ['vexil', 'projects', 'list', '--json'], connected);
    expect(projects.stderr).toBe('');
    expect(projects.code).toBe(0);
    expect((JSON.parse(projects.stdout) as Array<{ key: string }>).map((p) => p.key)).toContain(projectKey);

    const missing = await run(npx, ['vexil', 'flags', 'get', 'no-such-flag', '--project', projectKey], connected);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^vexil: .*not found/i);
    expect(missing.stderr).not.toMatch(/\n\s+at /);

    const file = path.join(home, 'project.yaml');
    expect((await run(npx, ['vexil', 'export', '--project', projectKey, '--output', file], connected)).code).toBe(0);
    expect((await run(npx, ['vexil', 'plan', file], connected)).code).toBe(0);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('name: Built CLI', 'name: Built CLI, renamed'));
    const plan = await run(npx, ['vexil', 'plan', file], connected);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(`~ update project ${projectKey}`);
  });
});
