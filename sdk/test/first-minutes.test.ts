/** The SDK's first minutes: readiness, what an error says, degraded OpenFeature start, stream limits. */
import { OpenFeature, ProviderStatus } from '@openfeature/server-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { VexilServerProvider } from '../src/openfeature/server.js';
import { VexilServerClient } from '../src/server-client.js';
import { SseOverflowError, SseParser } from '../src/sse.js';
import { gold, baseConfig } from './support/fixtures.js';
import { CLIENT_KEY, FakeVexil, freePort, SERVER_KEY } from './support/fake-vexil.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function serverClient(baseUrl: string, apiKey = SERVER_KEY): VexilServerClient {
  const c = new VexilServerClient({
    baseUrl,
    apiKey,
    logger: null,
    usage: false,
    reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
    pollIntervalMs: 1000,
  });
  cleanups.push(() => c.close());
  return c;
}

describe('ready(timeoutMs)', () => {
  it('waits for the payload within the timeout instead of giving up at the first failed attempt', async () => {
    const port = await freePort();
    const c = serverClient(`http://127.0.0.1:${port}`);
    const started = Date.now();
    const ready = c.ready(3000);
    // The service comes up after the first attempts failed.
    const f = new FakeVexil(baseConfig(), { heartbeatMs: 100 });
    setTimeout(() => void f.start(port), 300);
    cleanups.push(() => f.stop());
    expect(await ready).toBe(true);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('resolves false only when the timeout passes', async () => {
    const port = await freePort();
    const c = serverClient(`http://127.0.0.1:${port}`);
    const started = Date.now();
    expect(await c.ready(400)).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });
});

describe('what a refused key says', () => {
  it('names the 401 instead of an unreachable service', async () => {
    const f = await new FakeVexil(baseConfig(), { heartbeatMs: 100 }).start();
    cleanups.push(() => f.stop());
    const c = serverClient(f.baseUrl, `srv_${'z'.repeat(40)}`);
    expect(await c.ready(500)).toBe(false);
    const details = c.booleanDetails('new-checkout', gold, false);
    expect(details.errorCode).toBe('PROVIDER_NOT_READY');
    expect(details.errorMessage).toMatch(/401/);
    expect(details.errorMessage).not.toMatch(/has not been reached/);
  });

  it('names a key of the wrong kind for the mode', () => {
    const c = serverClient('http://127.0.0.1:9', CLIENT_KEY);
    expect(c.booleanDetails('new-checkout', gold, false).errorMessage).toMatch(/needs a server key \(srv_\.\.\.\)/);
  });
});

describe('the OpenFeature provider with Vexil down at start', () => {
  it('comes up degraded, serves defaults, and never rejects setProviderAndWait (the README example)', async () => {
    const port = await freePort();
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    cleanups.push(() => void process.off('unhandledRejection', onRejection));
    const domain = `down-${port}`;
    const provider = new VexilServerProvider({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: SERVER_KEY,
      logger: null,
      usage: false,
      reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
    });
    cleanups.push(() => OpenFeature.clearProviders());
    // What the README shows, copied as is.
    await OpenFeature.setProviderAndWait(domain, provider);
    const client = OpenFeature.getClient(domain);
    expect(await client.getBooleanValue('new-checkout', true, { targetingKey: 'user-42', plan: 'gold' })).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(client.providerStatus).toBe(ProviderStatus.ERROR);
    // Vexil comes up: the provider recovers by itself.
    const f = await new FakeVexil(baseConfig(), { heartbeatMs: 100 }).start(port);
    cleanups.push(() => f.stop());
    for (let i = 0; i < 100 && client.providerStatus !== ProviderStatus.READY; i++) await new Promise((r) => setTimeout(r, 30));
    expect(client.providerStatus).toBe(ProviderStatus.READY);
    expect(rejections).toEqual([]);
  });
});

describe('the stream parser limits', () => {
  it('strips a byte-order mark at the start of the stream only', () => {
    const p = new SseParser();
    expect(p.feed('\ufeffevent: etag\ndata: {"etag":"\\"a\\""}\n\n')).toEqual([
      { event: 'etag', data: '{"etag":"\\"a\\""}', id: undefined },
    ]);
    // Later in the stream it is part of the field name, which is then unknown.
    expect(p.feed('\ufeffdata: x\n\n')).toEqual([]);
  });

  it('refuses a line that never ends, and an event whose data never ends, past the limit', () => {
    const line = new SseParser(1000);
    expect(() => {
      for (let i = 0; i < 20; i++) line.feed('x'.repeat(100));
    }).toThrow(SseOverflowError);
    const data = new SseParser(1000);
    expect(() => {
      for (let i = 0; i < 20; i++) data.feed(`data: ${'y'.repeat(90)}\n`);
    }).toThrow(SseOverflowError);
  });
});
