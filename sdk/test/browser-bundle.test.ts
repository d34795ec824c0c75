/**
 * The SDK is usable from a browser bundle: esbuild bundles the main entry and the web provider
 * for the browser platform without Node built-ins, and the bundle runs in a bare JavaScript
 * context that has only what browsers have (fetch, TextDecoder, AbortController, timers):
 * no process, require, Buffer or Node modules.
 */
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseConfig } from './support/fixtures.js';
import { CLIENT_KEY, FakeVexil } from './support/fake-vexil.js';

const entries = {
  main: new URL('../src/index.ts', import.meta.url).pathname,
  web: new URL('../src/openfeature/web.ts', import.meta.url).pathname,
};

async function bundle(entry: string, globalName: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName,
    target: 'es2020',
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  return result.outputFiles[0]!.text;
}

function browserLikeContext(): Record<string, unknown> {
  return {
    fetch,
    Headers,
    Request,
    Response,
    TextDecoder,
    TextEncoder,
    AbortController,
    AbortSignal,
    ReadableStream,
    URL,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    queueMicrotask,
    structuredClone,
    performance,
    console,
  };
}

describe('browser bundle', () => {
  let f: FakeVexil;
  beforeAll(async () => {
    f = await new FakeVexil(baseConfig(), { heartbeatMs: 100 }).start();
  });
  afterAll(async () => {
    await f.stop();
  });

  it('the main entry bundles for the browser and runs without Node globals', async () => {
    const code = await bundle(entries.main, 'Vexil');
    expect(code).not.toMatch(/\brequire\(/);
    expect(code).not.toMatch(/from\s*["']node:/);
    const context = createContext(browserLikeContext());
    runInContext(code, context);
    expect(runInContext('typeof process + typeof require + typeof Buffer', context)).toBe('undefinedundefinedundefined');
    context['config'] = baseConfig();
    const value = runInContext(
      `const c = Vexil.createServerClient({ offline: true, bootstrap: config, logger: null });
       c.boolean('new-checkout', { type: 'user', identifier: 'u', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] }, false)`,
      context,
    );
    expect(value).toBe(true);

    // the client-side client over fetch, stream included
    context['baseUrl'] = f.baseUrl;
    context['apiKey'] = CLIENT_KEY;
    const details = await runInContext(
      `(async () => {
         const c = Vexil.createClientSideClient({ baseUrl, apiKey, context: { type: 'user', identifier: 'u', attributes: { plan: 'gold' } }, logger: null, usage: false });
         await c.ready();
         const d = c.booleanDetails('new-checkout', false);
         await new Promise((r) => setTimeout(r, 100));
         await c.close();
         return d;
       })()`,
      context,
    );
    expect(details).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(f.count('/v1/stream')).toBeGreaterThanOrEqual(1);
  });

  it('the web provider bundles (with @openfeature/web-sdk) and runs', async () => {
    const code = await bundle(entries.web, 'VexilWeb');
    expect(code).not.toMatch(/\brequire\(/);
    const context = createContext(browserLikeContext());
    runInContext(code, context);
    expect(runInContext('typeof VexilWeb.VexilWebProvider', context)).toBe('function');
  });
});
