import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleFiles } from '../../../src/http/web/console-files.js';

describe('console files', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-web-'));
  let base = '';
  let close: () => void = () => {};

  beforeAll(async () => {
    fs.mkdirSync(path.join(root, 'assets'));
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Vexil</title>');
    fs.writeFileSync(path.join(root, 'assets', 'main-abc123.js'), 'console.log(1)');
    fs.copyFileSync(path.join(import.meta.dirname, '../../../web/public/favicon.svg'), path.join(root, 'favicon.svg'));
    fs.writeFileSync(path.join(os.tmpdir(), 'vexil-secret.txt'), 'secret');
    const app = new Koa();
    const serve = consoleFiles(root);
    app.use((ctx) => {
      if (!serve(ctx)) {
        ctx.status = 404;
        ctx.body = { status: 'error', message: 'Not found.' };
      }
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => {
    close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('serves hashed assets for a year and the page for revalidation, with the security headers', async () => {
    const asset = await fetch(`${base}/assets/main-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const page = await fetch(`${base}/`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the icon at /favicon.ico and /favicon.svg, cached, and the page links it', async () => {
    for (const iconPath of ['/favicon.ico', '/favicon.svg']) {
      const icon = await fetch(base + iconPath);
      expect(icon.status, iconPath).toBe(200);
      expect(icon.headers.get('content-type'), iconPath).toBe('image/svg+xml');
      expect(icon.headers.get('cache-control'), iconPath).toBe('public, max-age=86400');
      expect(await icon.text()).toContain('<svg');
    }
    // The console's page names the icon, which the build copies from web/public to web/dist.
    const page = fs.readFileSync(path.join(import.meta.dirname, '../../../web/index.html'), 'utf8');
    expect(page).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg" />');
  });

  it("answers the console's own routes with the page, but never an API path, a missing asset or a file outside", async () => {
    const route = await fetch(`${base}/projects/shop/flags`, { headers: { accept: 'text/html' } });
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>Vexil</title>');
    for (const apiPath of ['/v1/flags', '/management/v1/projects', '/ofrep/v1/evaluate/flags', '/health']) {
      expect((await fetch(base + apiPath)).status, apiPath).toBe(404);
    }
    expect((await fetch(`${base}/assets/gone-123.js`)).status).toBe(404);
    const escape = await fetch(`${base}/..%2f..%2fvexil-secret.txt`);
    expect(await escape.text()).not.toBe('secret');
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(404);
  });

  it('answers only browser navigations with the page: a JSON or wildcard client of an unknown path gets the 404', async () => {
    for (const accept of ['text/html,application/xhtml+xml,*/*;q=0.8', 'text/html']) {
      const page = await fetch(`${base}/projects/shop`, { headers: { accept } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    for (const accept of ['application/json', '*/*']) {
      const res = await fetch(`${base}/definitely-not-a-path`, { headers: { accept } });
      expect(res.status, accept).toBe(404);
      expect(await res.json()).toEqual({ status: 'error', message: 'Not found.' });
    }
    // The page itself and real files answer every client.
    expect((await fetch(`${base}/`, { headers: { accept: 'application/json' } })).status).toBe(200);
    expect((await fetch(`${base}/assets/main-abc123.js`, { headers: { accept: '*/*' } })).status).toBe(200);
  });

  it('answers HEAD as GET, 200 with the length and no body', async () => {
    for (const path of ['/', '/assets/main-abc123.js']) {
      const get = await fetch(base + path);
      const head = await fetch(base + path, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-length'), path).toBe(get.headers.get('content-length'));
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
    }
  });
});
