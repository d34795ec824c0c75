import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import knexFactory, { type Knex } from 'knex';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

const root = path.resolve(import.meta.dirname, '../..');
export const screenshotDir = path.join(root, 'test-results', 'screenshots');

/** Builds the console once per run when web/dist is missing (make test builds it first). */
function ensureConsoleBuilt(): void {
  if (fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) return;
  execFileSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
}

export interface RunningVexil {
  baseUrl: string;
  ownerToken: string;
  ownerEmail: string;
  ownerPassword: string;
  /** A management call with the owner token. */
  api(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** A management call with the owner token that must answer 200; its `data`. */
  ok(method: string, route: string, body?: unknown): Promise<any>;
  stop(): Promise<void>;
}

/** The built server as a process (`make build`), on a fresh SQLite file, with an owner who has a console password. */
export async function startVexil(env: Record<string, string> = {}): Promise<RunningVexil> {
  ensureConsoleBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-browser-'));
  const ownerToken = generateSecret('pat_');
  requireFreshBuild();
  // A port picked at random can be taken by the time the server binds it (another suite's server,
  // an outgoing connection): a server that exits before it answers is started again on another.
  const launch = (port: number) => {
    const child: ChildProcess = spawn(process.execPath, [builtServer], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${dir}/vexil.db`,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        VEXIL_INIT_OWNER_TOKEN: ownerToken,
        VEXIL_REVISION_POLL_MS: '100',
        VEXIL_DRAIN_MS: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const state = { ended: false };
    const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => {
      state.ended = true;
    });
    return { child, exited, state, baseUrl: `http://127.0.0.1:${port}` };
  };
  let server = launch(serverPort());
  let baseUrl = server.baseUrl;
  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/management/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${ownerToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const ok = async (method: string, route: string, body?: unknown) => {
    const res = await api(method, route, body);
    expect(res.status, `${method} ${route} ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  };
  let up = false;
  // Up to 120 s: a start on a machine busy with other suites can take tens of seconds.
  for (let i = 0, starts = 1; i < 1200 && !up; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (server.state.ended && starts < 3) {
      starts++;
      server = launch(serverPort());
      baseUrl = server.baseUrl;
    }
    up = await api('GET', '/projects').then(
      (r) => r.status === 200,
      () => false,
    );
  }
  if (!up) throw new Error('Vexil did not start');
  const accounts = await api('GET', '/accounts');
  const owner = accounts.body.data[0] as { ulid: string; email: string };
  const ownerPassword = 'a long console password';
  await api('PUT', `/accounts/${owner.ulid}/password`, { password: ownerPassword });
  return {
    baseUrl,
    ownerToken,
    ownerEmail: owner.email,
    ownerPassword,
    api,
    ok,
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A management call as a person in the console (the owner's session, signed in over HTTP): what
 * only a console session may do, such as typed confirmation in a `confirmation_required`
 * environment. Answers its `data`, after checking for 200.
 */
export async function consoleSessionOk(vexil: RunningVexil, method: string, route: string, body?: unknown): Promise<any> {
  const signIn = await fetch(`${vexil.baseUrl}/management/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: vexil.ownerEmail, password: vexil.ownerPassword }),
  });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = ((await signIn.json()) as { data: { csrf_token: string } }).data.csrf_token;
  const res = await fetch(`${vexil.baseUrl}/management/v1${route}`, {
    method,
    headers: { cookie, 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${route} ${text}`).toBe(200);
  return text ? JSON.parse(text).data : undefined;
}

function chromiumPath(): string {
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) if (fs.existsSync(candidate)) return candidate;
  return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
}

/** Browsers launched and not yet closed: what a failed test shows of their pages (failure-report.ts). */
export const launchedBrowsers = new Set<Browser>();

/** Debian's Chromium, headless; no browser download. `extraArgs` are further Chromium switches. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...extraArgs,
    ],
  });
  launchedBrowsers.add(browser);
  browser.on('disconnected', () => launchedBrowsers.delete(browser));
  return browser;
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (run outside the page's CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = (await page.evaluate(() => (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as {
    violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/** Opens the console and submits the sign-in form (as the owner unless told). */
export async function submitSignIn(
  page: Page,
  vexil: RunningVexil,
  email = vexil.ownerEmail,
  password = vexil.ownerPassword,
): Promise<void> {
  await page.goto(vexil.baseUrl);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the sign-in form (as the owner unless told) and waits for the projects screen. */
export async function signIn(page: Page, vexil: RunningVexil, email?: string, password?: string): Promise<void> {
  await submitSignIn(page, vexil, email, password);
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
}

export type SqliteWork = (db: Knex) => Promise<unknown>;

/**
 * Changes rows of a running server's SQLite file directly (dates the API cannot set), waiting
 * for the server's writes (SQLite serialises writers); the work must change at least one row.
 */
export async function writeSqliteFile(filename: string, work: SqliteWork): Promise<void> {
  const db = knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: { afterCreate: (c: { pragma(p: string): void }, done: () => void) => (c.pragma('busy_timeout = 5000'), done()) },
  });
  try {
    expect(await work(db)).toBeGreaterThan(0);
  } finally {
    await db.destroy();
  }
}
