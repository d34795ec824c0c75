import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// What the command says before it talks to any server: help and usage errors.
describe('the vexil CLI without a server', () => {
  let home: string;
  let env: Record<string, string>;

  beforeAll(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-cli-usage-'));
    env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config') };
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('answers --help on every command and every group of commands', async () => {
    const group = await runCli(['flags', '--help'], env);
    expect(group.stderr).toBe('');
    expect(group.code).toBe(0);
    expect(group.stdout).toMatch(/^Usage: vexil flags <command>/);
    for (const words of ['flags list', 'flags get', 'flags serve']) expect(group.stdout).toContain(words);
    expect(group.stdout).not.toContain('tokens create');

    for (const words of [
      ['login'],
      ['projects', 'list'],
      ['flags', 'serve'],
      ['audit', 'tail'],
      ['promote'],
      ['keys', 'create'],
      ['plan'],
      ['apply'],
    ]) {
      const help = await runCli([...words, '--help'], env);
      expect(help.code, words.join(' ')).toBe(0);
      expect(help.stdout).toContain(`Usage: vexil ${words.join(' ')}`);
    }
    // Help wins over options the command does not know, and `vexil help WORDS` is the same.
    expect((await runCli(['plan', '--nope', '-h'], env)).code).toBe(0);
    const viaHelp = await runCli(['help', 'audit'], env);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain('audit tail');

    const bare = await runCli(['flags'], env);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toContain('"flags" needs a command');
  });

  it('refuses a URL without a scheme as wrong usage (exit 64), naming the form it wants', async () => {
    const result = await runCli(['login', '--url', '127.0.0.1:19302', '--token', `pat_${'x'.repeat(40)}`], env);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--url must be an http:// or https:// URL, e.g. http://127.0.0.1:19302');
    expect(result.stderr).toContain('Usage: vexil login');

    const fromEnvironment = await runCli(['projects', 'list'], {
      ...env,
      VEXIL_URL: 'localhost:8080',
      VEXIL_TOKEN: `pat_${'x'.repeat(40)}`,
    });
    expect(fromEnvironment.code).toBe(64);
    expect(fromEnvironment.stderr).toContain('VEXIL_URL must be an http:// or https:// URL');
  });

  it('names where a project comes from when none is given', async () => {
    const result = await runCli(['flags', 'serve', 'new-checkout', 'true', '--env', 'production'], {
      ...env,
      VEXIL_URL: 'http://127.0.0.1:9',
      VEXIL_TOKEN: 'pat_x',
    });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--project is required (or set VEXIL_PROJECT, or keep a default with `vexil login --project KEY`)');
  });
});
