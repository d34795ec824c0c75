import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// The pages a browser gets from the Vexil process itself: the API reference, with no CDN.
describe('the API reference', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(testDatabases[0]!);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves /docs and its assets from Vexil, without inline script', async () => {
    const page = await fetch(`${app.baseUrl}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    for (const src of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)) {
      expect(src.startsWith('/docs/'), src).toBe(true);
      expect((await fetch(app.baseUrl + src)).status, src).toBe(200);
    }
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('answers the api-docs URLs with the page to a browser and with JSON to everything else', async () => {
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const url of ['/v1/api-docs', '/management/v1/api-docs']) {
      const html = await fetch(app.baseUrl + url, { headers: { accept: browserAccept } });
      expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await html.text()).toContain('/docs/init.js');
      for (const accept of ['application/json', '*/*', '']) {
        const json = await fetch(app.baseUrl + url, { headers: accept ? { accept } : {} });
        expect(json.headers.get('content-type'), `${url} ${accept}`).toMatch(/^application\/json/);
        expect(((await json.json()) as { openapi: string }).openapi).toBe('3.0.3');
      }
    }
  });
});
