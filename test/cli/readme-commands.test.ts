import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { compose, type Composition } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';
import { bootstrapFirstStart } from '../../src/features/accounts/bootstrap.js';
import { describeEachDatabase } from '../support/databases.js';
import { testConfig } from '../support/test-app.js';
import { runCli, startCli } from './run-cli.js';

/** The ```sh block of the README's "The `vexil` command" section, one command per line. */
function readmeCommands(): string[] {
  const readme = fs.readFileSync('README.md', 'utf8');
  const section = /^## The `vexil` command\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  const block = section && /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```sh block under "The `vexil` command"');
  return block.split('\n').filter((line) => line.trim() !== '');
}

/** The words of a command line as sh reads them: single quotes kept together, a trailing # comment dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === "'") quoted = false;
      else current += c;
    } else if (c === "'") {
      quoted = true;
      inWord = true;
    } else if (c === '#' && !inWord) break;
    else if (c === ' ') {
      if (inWord) out.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) out.push(current);
  return out;
}

// Every command of the README's CLI section, run as written against a server after its first
// start (the demo project), with the README's address replaced by the test server's.
describeEachDatabase("the README's vexil commands", (db) => {
  let composition: Composition;
  let server: http.Server;
  let baseUrl: string;
  let token: string;
  let home: string;
  let env: Record<string, string>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await db.create();
    drop = database.drop;
    composition = await compose({ ...loadConfig({}), ...testConfig, databaseUrl: database.url }, { logger: pino({ level: 'silent' }) });
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    try {
      expect((await bootstrapFirstStart(composition.core, undefined)).outcome).toBe('demo');
    } finally {
      spy.mockRestore();
    }
    token = /pat_[0-9A-Za-z]{40}/.exec(printed.join(''))![0];
    for (const task of composition.tasks) task.start();
    server = http.createServer(createApp(composition).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-readme-cli-'));
    env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config') };
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await composition?.close();
    await drop?.();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('runs each command as written, the demo project having the flags they use', async () => {
    const outputs: Record<string, string> = {};
    for (const line of readmeCommands()) {
      const argv = words(line.replaceAll('http://localhost:8080', baseUrl));
      expect(argv.slice(0, 2), line).toEqual(['npx', 'vexil']);
      const args = argv.slice(2);
      if (args.includes('--follow')) {
        const child = startCli(args, env);
        let stdout = '';
        child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
        const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
        for (let i = 0; i < 200 && !stdout.includes('\n'); i++) await new Promise((r) => setTimeout(r, 50));
        child.kill('SIGINT');
        expect(await closed, line).toBe(0);
        outputs[args.slice(0, 2).join(' ')] = stdout;
        continue;
      }
      // `login` reads the token from standard input, as when it is piped in.
      const result = await runCli(args, env, args[0] === 'login' ? `${token}\n` : undefined);
      expect(result.stderr, line).toBe('');
      expect(result.code, line).toBe(0);
      outputs[args.slice(0, 2).join(' ')] = (outputs[args.slice(0, 2).join(' ')] ?? '') + result.stdout;
    }
    expect(outputs['projects list']).toContain('demo');
    expect(outputs['flags list']).toMatch(/new-checkout\s+boolean/);
    expect(outputs['flags get']).toMatch(/type\s+boolean/);
    expect(outputs['evaluate new-checkout']).toMatch(/value\s+(true|false)\n/);
    expect(outputs['evaluate hero-banner']).toMatch(/value\s+Spring sale\n/);
    expect(outputs['flags serve']).toMatch(/serving\s+false\n/);
    expect(outputs['keys create']).toMatch(/key\s+srv_/);
    expect(outputs['tokens create']).toMatch(/token\s+mgt_/);
    expect(outputs['audit tail']).toMatch(/^TIME\s+ACTOR\s+ACTION/);
    expect(outputs['audit tail']).toContain('target.served');
    // A dozen processes: slow on a busy machine.
  }, 240_000);
});
