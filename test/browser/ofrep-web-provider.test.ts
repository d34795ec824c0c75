import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startVexil, type RunningVexil } from './harness.js';

const root = path.resolve(import.meta.dirname, '../..');

/** The page script, bundled now from node_modules (test/browser/ofrep-web-page.ts). */
async function bundlePageScript(): Promise<string> {
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(root, 'test/browser/ofrep-web-page.ts'), formats: ['iife'], name: 'OfrepPage', fileName: 'page' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Array<{ output: Array<{ type: string; code?: string }> }>;
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (!chunk?.code) throw new Error('the page script did not bundle');
  return chunk.code;
}

/** A page on its own origin (http://localhost:<port>) that loads the bundled providers. */
async function startPageServer(script: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><html lang="en"><title>OFREP page</title><script src="/page.js"></script></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Details {
  value: unknown;
  reason?: string;
  variant?: string;
  errorCode?: string;
  flagMetadata?: Record<string, unknown>;
}

/**
 * OpenFeature's web provider for OFREP (@openfeature/ofrep-web-provider), in Debian's Chromium,
 * on a page of another origin than Vexil's: CORS, the protocol's shapes and reasons, ETag
 * revalidation with 304s, per-flag revisions (only the changed flag is reported as changed) and
 * the provider's local cache keyed by the X-API-Key header.
 */
describe('OFREP with the OpenFeature web provider in Chromium, from another origin', () => {
  let vexil: RunningVexil;
  let pageServer: Awaited<ReturnType<typeof startPageServer>>;
  let browser: Browser;
  let page: Page;
  const project = 'web';
  const keys: Record<string, string> = {};
  const ofrepResponses: number[] = [];

  async function ok(method: string, route: string, body?: unknown): Promise<any> {
    const res = await vexil.api(method, route, body);
    expect(res.status, `${method} ${route}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  }

  async function valueUlid(flag: string, display: string): Promise<string> {
    const values: Array<{ ulid: string; display: string }> = await ok('GET', `/projects/${project}/flags/${flag}/values`);
    const value = values.find((v) => v.display === display);
    if (value) return value.ulid;
    return (await ok('POST', `/projects/${project}/flags/${flag}/values`, { display })).ulid;
  }

  /** Publishes `value` (with rules) for a flag in an environment. */
  async function publish(
    environment: string,
    flag: string,
    value: string,
    rules: Array<{ value: string; attribute: string; equals: string }> = [],
  ) {
    const base = `/projects/${project}/flags/${flag}/environments/${environment}/targets`;
    const draft = await ok('POST', base);
    await ok('PUT', `${base}/${draft.ulid}`, { value_ulid: await valueUlid(flag, value) });
    for (const rule of rules) {
      await ok('POST', `${base}/${draft.ulid}/rules`, {
        value_ulid: await valueUlid(flag, rule.value),
        description: `${rule.attribute} is ${rule.equals}`,
        criteria: [{ selector: 'attribute', sub_selector: rule.attribute, comparer: 'equal', values: [rule.equals] }],
      });
    }
    await ok('PUT', `${base}/${draft.ulid}/publish`, {});
  }

  /** Runs the provider in a freshly loaded page; `script` gets `ofrep` (the bundled SDK and provider). */
  async function inPage<T>(script: string, arg: unknown): Promise<T> {
    return page.evaluate(
      async ([source, input]) => {
        const run = new Function('ofrep', 'input', `return (async () => { ${source} })();`);
        return run((window as unknown as { ofrep: unknown }).ofrep, input);
      },
      [script, arg] as const,
    ) as Promise<T>;
  }

  const openPage = async () => {
    await page.goto(pageServer.origin);
    await page.waitForFunction(() => 'ofrep' in window);
  };

  beforeAll(async () => {
    pageServer = await startPageServer(await bundlePageScript());
    // Only the page's origin may call the public API and OFREP from a browser.
    vexil = await startVexil({ VEXIL_CORS_ORIGINS: pageServer.origin });
    await ok('POST', '/projects', {
      key: project,
      name: 'Web',
      environments: [
        { key: 'development', name: 'Development' },
        { key: 'production', name: 'Production' },
      ],
    });
    for (const environment of ['development', 'production']) {
      keys[environment] = (await ok('POST', `/projects/${project}/environments/${environment}/keys`, { kind: 'client' })).key;
    }
    await ok('POST', `/projects/${project}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    await ok('POST', `/projects/${project}/flags`, { key: 'banner', name: 'Banner', type: 'string' });
    await ok('POST', `/projects/${project}/flags/banner/values`, { display: 'Welcome' });
    await ok('POST', `/projects/${project}/flags`, { key: 'limit', name: 'Limit', type: 'number' });
    await ok('POST', `/projects/${project}/flags/limit/values`, { display: '20' });
    await ok('POST', `/projects/${project}/flags`, { key: 'theme', name: 'Theme', type: 'json' });
    await ok('POST', `/projects/${project}/flags/theme/values`, { display: '{"dense":false}' });
    await ok('POST', `/projects/${project}/flags`, { key: 'internal', name: 'Internal', type: 'boolean', include_in_client: false });
    for (const environment of ['development', 'production']) {
      await publish(environment, 'checkout', 'false', [{ value: 'true', attribute: 'plan', equals: 'pro' }]);
      await publish(environment, 'limit', environment === 'production' ? '50' : '20');
    }
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('response', (response) => {
      if (response.url().includes('/ofrep/v1/')) ofrepResponses.push(response.status());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
    await pageServer?.close();
  });

  it('evaluates every flag for the page’s context across origins, with the protocol’s reasons', async () => {
    await openPage();
    const result = await inPage<Record<string, Details>>(
      `
      const { OpenFeature, OFREPWebProvider } = ofrep;
      await OpenFeature.setContext({ targetingKey: 'user-1', plan: 'pro' });
      await OpenFeature.setProviderAndWait(new OFREPWebProvider({ baseUrl: input.baseUrl, headers: [['X-API-Key', input.key]], cacheMode: 'disabled' }));
      const client = OpenFeature.getClient();
      const out = {
        checkout: client.getBooleanDetails('checkout', false),
        banner: client.getStringDetails('banner', 'fallback'),
        limit: client.getNumberDetails('limit', 0),
        theme: client.getObjectDetails('theme', {}),
        internal: client.getBooleanDetails('internal', true),
      };
      await OpenFeature.setContext({ targetingKey: 'user-2' });
      out.checkoutForOthers = client.getBooleanDetails('checkout', true);
      await OpenFeature.close();
      return JSON.parse(JSON.stringify(out));
      `,
      { baseUrl: vexil.baseUrl, key: keys.production },
    );
    expect(result.checkout).toMatchObject({
      value: true,
      reason: 'TARGETING_MATCH',
      variant: 'true',
      flagMetadata: { resolved_by: 'rule', type: 'boolean' },
    });
    // Nothing published for banner: its default value, STATIC (the protocol has no DEFAULT reason).
    expect(result.banner).toMatchObject({ value: 'Welcome', reason: 'STATIC', flagMetadata: { resolved_by: 'default' } });
    expect(result.limit).toMatchObject({ value: 50, reason: 'STATIC', flagMetadata: { resolved_by: 'target' } });
    expect(result.theme).toMatchObject({ value: { dense: false }, reason: 'STATIC' });
    // Not included for client keys: not in the bulk answer.
    expect(result.internal).toMatchObject({ value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    // A new context is evaluated again.
    expect(result.checkoutForOthers).toMatchObject({ value: false, reason: 'STATIC' });
  });

  it('revalidates with the ETag (304 while nothing changed) and reports only the flag that changed', async () => {
    await openPage();
    ofrepResponses.length = 0;
    await inPage(
      `
      const { OpenFeature, OFREPWebProvider, ProviderEvents } = ofrep;
      window.changes = [];
      await OpenFeature.setContext({ targetingKey: 'user-1', plan: 'pro' });
      await OpenFeature.setProviderAndWait(new OFREPWebProvider({ baseUrl: input.baseUrl, headers: [['X-API-Key', input.key]], cacheMode: 'disabled', pollInterval: 200 }));
      OpenFeature.getClient().addHandler(ProviderEvents.ConfigurationChanged, (details) => window.changes.push(details.flagsChanged));
      `,
      { baseUrl: vexil.baseUrl, key: keys.production },
    );
    await expect.poll(() => ofrepResponses.filter((s) => s === 304).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(ofrepResponses.every((s) => s === 200 || s === 304)).toBe(true);

    // One flag changes; every other flag keeps its own revision, so only this one is reported.
    await publish('production', 'banner', 'Welcome');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { changes: string[][] }).changes), { timeout: 10_000 })
      .toEqual([['banner']]);
    const banner = await inPage<Details>(
      `const d = ofrep.OpenFeature.getClient().getStringDetails('banner', 'x'); await ofrep.OpenFeature.close(); return d;`,
      null,
    );
    expect(banner).toMatchObject({ value: 'Welcome', reason: 'STATIC', flagMetadata: { resolved_by: 'target' } });
  });

  it('keeps a separate local cache per key when the key is sent as X-API-Key, as the documents advise', async () => {
    // The provider's default cache mode: answer from localStorage first, then refresh.
    const firstAnswer = (header: string, key: string) =>
      inPage<Details>(
        `
        const { OpenFeature, OFREPWebProvider } = ofrep;
        await OpenFeature.setContext({ targetingKey: 'user-1' });
        await OpenFeature.setProviderAndWait(new OFREPWebProvider({ baseUrl: input.baseUrl, headers: [[input.header, input.key]] }));
        const details = OpenFeature.getClient().getNumberDetails('limit', 0);
        await OpenFeature.close();
        return JSON.parse(JSON.stringify(details));
        `,
        { baseUrl: vexil.baseUrl, header, key },
      );
    await openPage();
    await page.evaluate(() => localStorage.clear());
    expect(await firstAnswer('X-API-Key', keys.development!)).toMatchObject({ value: 20, reason: 'STATIC' });
    await openPage();
    // Another key's cached evaluations are not served: X-API-Key is part of the cache key.
    expect(await firstAnswer('X-API-Key', keys.production!)).toMatchObject({ value: 50, reason: 'STATIC' });
    await openPage();
    expect(await firstAnswer('X-API-Key', keys.development!)).toMatchObject({ value: 20, reason: 'CACHED' });

    // Why the documents advise X-API-Key: with Vexil's own header the provider cannot tell keys
    // apart, and a page switching keys is first served the other key's cached values.
    await openPage();
    await page.evaluate(() => localStorage.clear());
    expect(await firstAnswer('X-VEXIL-API-KEY', keys.development!)).toMatchObject({ value: 20 });
    await openPage();
    expect(await firstAnswer('X-VEXIL-API-KEY', keys.production!)).toMatchObject({ value: 20, reason: 'CACHED' });
  });
});
