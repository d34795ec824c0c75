import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { compose } from '../../src/composition-root.js';
import { loadConfig } from '../../src/config.js';
import { bootstrapFirstStart } from '../../src/features/accounts/bootstrap.js';
import { builtCli, requireFreshBuild } from '../support/built.js';
import { testDatabases } from '../support/databases.js';
import { testConfig } from '../support/test-app.js';
import { type Block, documentationPages, fencedBlocks, outputPattern } from './blocks.js';

const root = process.cwd();

/**
 * Pages whose ```sh blocks another test runs, because they need more than one fresh server on
 * SQLite (the backups page runs on every database, under writes). That test must name the page.
 */
const runElsewhere: Record<string, string> = {
  'docs/backups.md': 'test/integration/backups.test.ts',
};

/** The secrets and settings a page's blocks may use, as after `make start` on an empty database. */
interface Started {
  baseUrl: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A fresh server after its first start (the owner and the demo project, as `make start` on an
 * empty database), in this process on a copy of the run's migrated schema: a page's server is
 * ready in a fraction of a second, where a process takes seconds.
 */
async function startServer(): Promise<Started> {
  const db = testDatabases.find((d) => d.name === 'sqlite') ?? testDatabases[0]!;
  const database = await db.createMigrated();
  const defaults = loadConfig({});
  const config = {
    ...defaults,
    ...testConfig,
    sessions: { ...defaults.sessions, passwordHashing: { N: 1024, r: 8, p: 1 } },
    databaseUrl: database.url,
  };
  const composition = await compose(config, { logger: pino({ level: 'silent' }) });
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
  for (const task of composition.tasks) task.start();
  const server = http.createServer({ maxHeaderSize: config.maxHeaderBytes }, createApp(composition).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const text = printed.join('');
  const key = (environment: string, kind: string) =>
    new RegExp(`${environment}\\s+${kind}\\s+((?:srv|cli)_[0-9A-Za-z]+)`).exec(text)?.[1] ?? '';
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await composition.close();
      await database.drop();
    },
    env: {
      DATABASE_URL: database.url,
      TOKEN: /pat_[0-9A-Za-z]{40}/.exec(text)?.[0] ?? '',
      SERVER_KEY: key('development', 'server'),
      CLIENT_KEY: key('development', 'client'),
      PRODUCTION_SERVER_KEY: key('production', 'server'),
    },
  };
}

/** Runs a script in bash to its end (asynchronously: the server answers from this process). */
function runBash(
  script: string,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * A directory that looks like the repository's root (a link to each of its entries but .git), so
 * commands run as from a clone while the files a page writes stay in the test's directory.
 */
function mirrorOfRoot(dir: string): string {
  const mirror = path.join(dir, 'vexil');
  fs.mkdirSync(mirror);
  for (const entry of fs.readdirSync(root)) {
    if (entry === '.git' || entry === 'data') continue;
    fs.symlinkSync(path.join(root, entry), path.join(mirror, entry));
  }
  return mirror;
}

/**
 * The script of one page: its ```sh blocks in order, in one shell, each announced on both
 * streams. `npx vexil` runs the built command (as it does in a clone, without npx's start-up),
 * and curl fails on an answer of 400 or above, so a block that gets an error fails.
 */
function pageScript(blocks: Block[], baseUrl: string): string {
  const prelude = [
    'set -e -o pipefail',
    `npx() { if [ "$1" = vexil ]; then shift; node ${JSON.stringify(builtCli)} "$@"; else command npx "$@"; fi; }`,
    'curl() { command curl --fail-with-body "$@"; }',
  ];
  const body = blocks.map((block, i) => {
    const text = block.text.replaceAll('http://localhost:8080', baseUrl).replaceAll('localhost:8080', baseUrl);
    return `printf '\\n@@block ${i}@@\\n'; printf '\\n@@block ${i}@@\\n' >&2\n${text}`;
  });
  return `${[...prelude, ...body].join('\n')}\n`;
}

/** Each block's part of a stream, by the markers the script prints. */
function byBlock(stream: string, count: number): string[] {
  const parts = Array.from({ length: count }, () => '');
  for (const part of stream
    .split(/\n@@block (\d+)@@\n/)
    .slice(1)
    .reduce<[number, string][]>((pairs, piece, i, all) => {
      if (i % 2 === 0) pairs.push([Number(piece), all[i + 1] ?? '']);
      return pairs;
    }, [])) {
    parts[part[0]] = part[1];
  }
  return parts;
}

const pages = documentationPages(root).map((page) => ({
  page,
  blocks: fencedBlocks(fs.readFileSync(path.join(root, page), 'utf8')).filter((b) => b.lang === 'sh'),
}));

describe('the shell blocks of README.md and docs/', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('are marked: ```sh runs, and a command not run here is a ```console block with "$ " prompts', () => {
    for (const { page } of pages) {
      for (const block of fencedBlocks(fs.readFileSync(path.join(root, page), 'utf8'))) {
        // A bare fence is not run either (docs/architecture.md's trees).
        expect(['sh', 'console', 'text', 'ts', 'js', 'json', 'yaml', ''], `${page}:${block.line} \`\`\`${block.lang}`).toContain(
          block.lang,
        );
        if (block.lang === 'console') {
          let continued = false;
          for (const line of block.text.split('\n').filter((l) => l.trim() !== '')) {
            if (!continued && !line.startsWith('#')) expect(line, `${page}:${block.line}`).toMatch(/^\$ /);
            continued = line.endsWith('\\');
          }
        }
      }
    }
  });

  it('of the pages another test runs are run there', () => {
    for (const [page, test] of Object.entries(runElsewhere)) {
      expect(fs.readFileSync(path.join(root, test), 'utf8'), test).toContain(page);
    }
  });

  const runnable = pages.filter(({ page, blocks }) => blocks.length > 0 && !(page in runElsewhere));
  it.each(runnable)('of $page run as written against a fresh server, in order, in one shell', async ({ page, blocks }) => {
    requireFreshBuild();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-docs-'));
    dirs.push(dir);
    const server = await startServer();
    try {
      const home = path.join(dir, 'home');
      const tmp = path.join(dir, 'tmp');
      fs.mkdirSync(home);
      fs.mkdirSync(tmp);
      // A fresh home (the CLI keeps its settings there), without npm's update check, which a
      // fresh home turns on and which waits on the registry.
      const run = await runBash(pageScript(blocks, server.baseUrl), mirrorOfRoot(dir), {
        PATH: process.env.PATH,
        HOME: home,
        TMPDIR: tmp,
        NO_COLOR: '1',
        npm_config_update_notifier: 'false',
        ...server.env,
      });
      const stdout = byBlock(run.stdout, blocks.length);
      const stderr = byBlock(run.stderr, blocks.length);
      // The last block the shell started: the one that failed, when one did.
      const reached = Math.max(...blocks.map((_, i) => (run.stdout.includes(`@@block ${i}@@`) ? i : 0)));
      const at = (i: number) => `${page}:${blocks[i]!.line}\n--- stdout\n${stdout[i]}\n--- stderr\n${stderr[i]}`;
      expect(run.status, `${at(reached)}\n--- the shell's end\n${run.stderr.slice(-2000)}`).toBe(0);
      blocks.forEach((block, i) => {
        if (block.output) expect(stdout[i], at(i)).toMatch(outputPattern(block.output));
      });
    } finally {
      await server.stop();
    }
  });
});
