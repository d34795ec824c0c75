import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startVexil, type RunningVexil } from './harness.js';

const root = path.resolve(import.meta.dirname, '../..');
const sdkDist = path.join(root, 'sdk', 'dist');

/**
 * A browser application on its own origin (another port, and `localhost` where Vexil is reached as
 * 127.0.0.1): a page that loads the built @vexil/sdk (sdk/dist, `make build`) and uses its
 * client-side mode against Vexil, which answers it with CORS headers.
 */
const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><p id="value">loading</p>
<script type="module">
  import { createClientSideClient } from '/sdk/sdk/src/index.js';
  const params = new URLSearchParams(location.search);
  const flags = createClientSideClient({
    baseUrl: params.get('vexil'),
    apiKey: params.get('key'),
    context: { type: 'user', identifier: 'user-42', attributes: { plan: 'pro' } },
    storage: window.localStorage,
    usage: false,
  });
  const show = () => (document.getElementById('value').textContent = String(flags.boolean('new-checkout', false)));
  window.changes = 0;
  flags.on('change', () => { window.changes++; show(); });
  window.loaded = flags.ready(3000).then((ready) => { show(); return { ready, details: flags.booleanDetails('new-checkout', false) }; });
</script></body></html>`;

function startApplicationOrigin(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    const file = path.resolve(sdkDist, `.${url.pathname.replace(/^\/sdk/, '')}`);
    if (!url.pathname.startsWith('/sdk/') || !file.startsWith(sdkDist + path.sep) || !file.endsWith('.js') || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(fs.readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://localhost:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

async function clientKey(vexil: RunningVexil): Promise<string> {
  expect(
    (await vexil.api('POST', '/projects', { key: 'shop', name: 'Shop', environments: [{ key: 'production', name: 'Production' }] })).status,
  ).toBe(200);
  expect((await vexil.api('POST', '/projects/shop/flags', { key: 'new-checkout', name: 'New checkout', type: 'boolean' })).status).toBe(
    200,
  );
  expect((await vexil.api('POST', '/projects/shop/flags/new-checkout/environments/production/serve', { value: 'true' })).status).toBe(200);
  return (await vexil.api('POST', '/projects/shop/environments/production/keys', { kind: 'client' })).body.data.key as string;
}

describe('a browser application on another origin, with @vexil/sdk in client-side mode', () => {
  let vexil: RunningVexil;
  let closed: RunningVexil;
  let application: { url: string; close(): Promise<void> };
  let browser: Browser;
  let key: string;
  let closedKey: string;

  beforeAll(async () => {
    expect(fs.existsSync(path.join(sdkDist, 'sdk', 'src', 'index.js')), 'run `make build` first').toBe(true);
    vexil = await startVexil();
    closed = await startVexil({ VEXIL_CORS_ORIGINS: 'none' });
    key = await clientKey(vexil);
    closedKey = await clientKey(closed);
    application = await startApplicationOrigin();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await application?.close();
    await vexil?.stop();
    await closed?.stop();
  });

  async function open(
    server: RunningVexil,
    apiKey: string,
  ): Promise<{ page: Page; crossOrigin: Array<{ url: string; origin?: string; allowed?: string | null }> }> {
    const tab = await (await browser.newContext()).newPage();
    const crossOrigin: Array<{ url: string; origin?: string; allowed?: string | null }> = [];
    tab.on('response', (response) => {
      if (!response.url().startsWith(server.baseUrl)) return;
      void Promise.all([response.request().allHeaders(), response.allHeaders()]).then(([sent, answered]) =>
        crossOrigin.push({ url: response.url(), origin: sent.origin, allowed: answered['access-control-allow-origin'] ?? null }),
      );
    });
    await tab.goto(`${application.url}/?vexil=${encodeURIComponent(server.baseUrl)}&key=${encodeURIComponent(apiKey)}`);
    return { page: tab, crossOrigin };
  }

  it('fetches the values evaluated for its context and follows changes over the stream', async () => {
    const { page: tab, crossOrigin } = await open(vexil, key);
    const loaded = (await tab.evaluate(() => (window as unknown as { loaded: Promise<unknown> }).loaded)) as {
      ready: boolean;
      details: { value: boolean; reason: string };
    };
    expect(loaded.ready).toBe(true);
    expect(loaded.details.value).toBe(true);
    expect(await tab.locator('#value').textContent()).toBe('true');
    // The payload and the stream were cross-origin requests, answered with CORS headers.
    await expect
      .poll(() => crossOrigin.some((r) => r.url.includes('/v1/payload') && r.origin === application.url && r.allowed === '*'))
      .toBe(true);
    await expect
      .poll(() => crossOrigin.some((r) => r.url.includes('/v1/stream') && r.origin === application.url && r.allowed === '*'))
      .toBe(true);

    expect((await vexil.api('POST', '/projects/shop/flags/new-checkout/environments/production/serve', { value: 'false' })).status).toBe(
      200,
    );
    await tab.locator('#value', { hasText: 'false' }).waitFor({ timeout: 10_000 });
    expect(await tab.evaluate(() => (window as unknown as { changes: number }).changes)).toBeGreaterThanOrEqual(1);
    await tab.context().close();
  });

  it('gets nothing from a Vexil whose CORS is off (VEXIL_CORS_ORIGINS=none): the browser blocks the answers', async () => {
    const { page: tab } = await open(closed, closedKey);
    const errors: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const loaded = (await tab.evaluate(() => (window as unknown as { loaded: Promise<unknown> }).loaded)) as {
      ready: boolean;
      details: { value: boolean };
    };
    expect(loaded.ready).toBe(false);
    expect(loaded.details.value).toBe(false);
    expect(await tab.locator('#value').textContent()).toBe('false');
    // The same request from outside a browser is served: only the missing CORS headers stop it.
    const direct = await fetch(`${closed.baseUrl}/v1/payload`, {
      headers: { 'x-vexil-api-key': closedKey, 'x-vexil-context': '{"type":"user","identifier":"user-42"}' },
    });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('access-control-allow-origin')).toBeNull();
    await tab.context().close();
  });
});
