#!/usr/bin/env node
/**
 * The console's size and speed (issue targets): initial JavaScript gzip size of the built
 * console, and how long the flags screen of a BENCH_CONSOLE_FLAGS-flag project (default 10,000)
 * takes to show its first page after the API answered, in Debian's Chromium; the API's own
 * answer time for that page is the baseline measured in the same run. Needs `make build`.
 * Writes bench/results/console.md.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { Api } from './lib/api.mjs';
import { generatedConfiguration } from './lib/configuration-file.mjs';
import { removeTempFiles, startVexil } from './lib/server.mjs';
import { BENCH_DIR, ROOT, fmtInt } from './lib/util.mjs';

const flags = Number(process.env.BENCH_CONSOLE_FLAGS ?? 10_000);
const dist = path.join(ROOT, 'web', 'dist');
const log = (line) => process.stderr.write(`${line}\n`);

// Initial JavaScript: every script the page loads before anything else happens.
const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const scripts = [
  ...index.matchAll(/<script[^>]+src="([^"]+)"/g),
  ...index.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
].map((m) => m[1]);
const gzipBytes = scripts.reduce((sum, src) => sum + zlib.gzipSync(fs.readFileSync(path.join(dist, src))).length, 0);

const vexil = await startVexil({ label: 'console', env: { VEXIL_MAX_BODY_BYTES: String(256 * 1024 * 1024) } });
const browser = await chromium.launch({
  executablePath: fs.existsSync('/usr/bin/chromium')
    ? '/usr/bin/chromium'
    : execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  log(`console: creating ${fmtInt(flags)} flags`);
  const file = generatedConfiguration('bench-console', flags);

  await api.mgmt('POST', '/projects/bench-console/configuration/apply', file);
  const owner = (await api.mgmt('GET', '/accounts')).data[0];
  const password = 'a benchmark console password';
  await api.mgmt('PUT', `/accounts/${owner.ulid}/password`, { password });

  // Baseline: the API alone answering the page the screen asks for.
  const apiTimes = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await api.mgmt('GET', '/projects/bench-console/flags?per_page=50&include=serving');
    apiTimes.push(performance.now() - started);
  }

  const page = await (await browser.newContext()).newPage();
  await page.goto(vexil.baseUrl);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  const renders = [];
  for (let i = 0; i < 5; i++) {
    await page.goto(`${vexil.baseUrl}/projects`);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    const answered = page.waitForResponse((r) => r.url().includes('/projects/bench-console/flags?') && r.url().includes('include=serving'));
    await page.getByRole('link', { name: 'Flags of Bench' }).click();
    await answered;
    const afterResponse = await page.evaluate(() => performance.now());
    await page.locator('tbody tr').nth(49).waitFor();
    renders.push((await page.evaluate(() => performance.now())) - afterResponse);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const table = [
    `Console, ${fmtInt(flags)} flags x 2 environments, SQLite, Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}`,
    '',
    '| Measure | Value | Target |',
    '|---|---:|---|',
    `| Initial JavaScript (gzip) | ${(gzipBytes / 1024).toFixed(1)} KB | <= 250 KB |`,
    `| Flags screen: first page shown after the response (median of 5) | ${median(renders).toFixed(0)} ms | < 300 ms |`,
    `| Baseline: the API answering that page (median of 5) | ${median(apiTimes).toFixed(0)} ms | reported |`,
    '',
    'The console is checked after the APIs in the request dispatcher, so it adds no work to the public evaluation path (scenario 1 of `make bench`).',
    '',
  ].join('\n');
  process.stdout.write(table);
  fs.writeFileSync(path.join(BENCH_DIR, 'results', 'console.md'), table);
} finally {
  await browser.close();
  await vexil.stop();
  removeTempFiles();
}
