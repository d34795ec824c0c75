/** The OpenFeature web provider through the real @openfeature/web-sdk, against the in-test server. */
import { afterEach, describe, expect, it } from 'vitest';
import { OpenFeature, ProviderEvents, ProviderStatus, type EventDetails } from '@openfeature/web-sdk';
import { VexilWebProvider } from '../src/openfeature/web.js';
import { MemoryStorage } from '../src/client-side-client.js';
import { baseConfig, withCheckoutBase } from './support/fixtures.js';
import { CLIENT_KEY, FakeVexil, freePort, waitFor } from './support/fake-vexil.js';

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
OpenFeature.setLogger(silent);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await OpenFeature.clearProviders();
});

let domains = 0;
const nextDomain = () => `web-${domains++}`;

async function fake(): Promise<FakeVexil> {
  const f = await new FakeVexil(baseConfig(), { heartbeatMs: 100 }).start();
  cleanups.push(() => f.stop());
  return f;
}

function provider(baseUrl: string, extra: Record<string, unknown> = {}): VexilWebProvider {
  return new VexilWebProvider({
    baseUrl,
    apiKey: CLIENT_KEY,
    logger: null,
    usage: false,
    reconnect: { initialDelayMs: 20, maxDelayMs: 60 },
    ...extra,
  });
}

function collect(domain: string): { name: string; details?: EventDetails }[] {
  const events: { name: string; details?: EventDetails }[] = [];
  const client = OpenFeature.getClient(domain);
  for (const e of [
    ProviderEvents.Ready,
    ProviderEvents.Error,
    ProviderEvents.Stale,
    ProviderEvents.ConfigurationChanged,
    ProviderEvents.Reconciling,
    ProviderEvents.ContextChanged,
  ]) {
    client.addHandler(e, (details) => events.push({ name: e, details }));
  }
  return events;
}

describe('the web provider through the OpenFeature web SDK', () => {
  it('fetches values for the static context and resolves synchronously with reasons', async () => {
    const f = await fake();
    const domain = nextDomain();
    const p = provider(f.baseUrl);
    await OpenFeature.setProviderAndWait(domain, p, { targetingKey: 'u-1', plan: 'gold' });
    const client = OpenFeature.getClient(domain);
    expect(client.providerStatus).toBe(ProviderStatus.READY);
    const sent = JSON.parse(f.requests.find((r) => r.path === '/v1/payload')!.headers['x-vexil-context'] as string);
    expect(sent).toEqual({ type: 'user', identifier: 'u-1', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] });

    const d = client.getBooleanDetails('new-checkout', false);
    expect(d).toMatchObject({ value: true, reason: 'TARGETING_MATCH', variant: 'true' });
    expect(d.flagMetadata).toEqual({ resolved_by: 'rule', type: 'boolean', revision: 1 });
    expect(client.getNumberDetails('max-items', 0)).toMatchObject({ value: 50, reason: 'SPLIT' });
    expect(client.getStringDetails('banner', '')).toMatchObject({ value: 'Welcome', reason: 'DEFAULT' });
    expect(client.getObjectDetails('theme', {})).toMatchObject({ value: { primary: '#0055ff', dense: false }, reason: 'STATIC' });
    expect(client.getBooleanDetails('mobile-only', false)).toMatchObject({ value: false, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
    expect(client.getStringDetails('new-checkout', 'd')).toMatchObject({ value: 'd', reason: 'ERROR', errorCode: 'TYPE_MISMATCH' });
  });

  it('a context change re-fetches (RECONCILING, then CONTEXT_CHANGED) and serves the new values', async () => {
    const f = await fake();
    const domain = nextDomain();
    const events = collect(domain);
    await OpenFeature.setProviderAndWait(domain, provider(f.baseUrl), { targetingKey: 'u-2', plan: 'basic' });
    const client = OpenFeature.getClient(domain);
    expect(client.getBooleanValue('new-checkout', true)).toBe(false);
    await OpenFeature.setContext(domain, { targetingKey: 'u-1', plan: 'gold' });
    expect(client.getBooleanValue('new-checkout', false)).toBe(true);
    const last = f.requests.filter((r) => r.path === '/v1/payload').at(-1)!;
    expect(JSON.parse(last.headers['x-vexil-context'] as string).identifier).toBe('u-1');
    const names = events.map((e) => e.name);
    expect(names).toContain(ProviderEvents.Reconciling);
    expect(names).toContain(ProviderEvents.ContextChanged);
    expect(names).not.toContain(ProviderEvents.ConfigurationChanged);
    // an invalid context is refused
    await OpenFeature.setContext(domain, { plan: 'gold' });
    await waitFor(() => events.some((e) => e.name === ProviderEvents.Error), 2000, 'error for the invalid context');
  });

  it('CONFIGURATION_CHANGED when the stream announces new values, STALE on an outage, READY on recovery', async () => {
    const f = await fake();
    const domain = nextDomain();
    const events = collect(domain);
    await OpenFeature.setProviderAndWait(domain, provider(f.baseUrl), { targetingKey: 'u-2', plan: 'basic' });
    const client = OpenFeature.getClient(domain);
    await waitFor(() => f.streams.size === 1);
    f.publish(withCheckoutBase(true));
    await waitFor(() => events.some((e) => e.name === ProviderEvents.ConfigurationChanged), 2000, 'configuration changed');
    expect(events.find((e) => e.name === ProviderEvents.ConfigurationChanged)!.details?.flagsChanged).toEqual(['new-checkout']);
    expect(client.getBooleanValue('new-checkout', false)).toBe(true);

    const port = f.port;
    await f.stop();
    await waitFor(() => client.providerStatus === ProviderStatus.STALE, 3000, 'stale');
    expect(client.getBooleanValue('new-checkout', false)).toBe(true);
    await f.start(port);
    await waitFor(() => client.providerStatus === ProviderStatus.READY, 3000, 'ready again');
  });

  it('ERROR when the service is unreachable without stored values; READY once it answers', async () => {
    const port = await freePort();
    const domain = nextDomain();
    const events = collect(domain);
    await OpenFeature.setProviderAndWait(domain, provider(`http://127.0.0.1:${port}`), { targetingKey: 'u-1' });
    const client = OpenFeature.getClient(domain);
    await waitFor(() => client.providerStatus === ProviderStatus.ERROR, 2000, 'error');
    expect(client.getBooleanDetails('new-checkout', true)).toMatchObject({ value: true, errorCode: 'PROVIDER_NOT_READY' });
    const f = new FakeVexil(baseConfig(), { heartbeatMs: 100 });
    await f.start(port);
    cleanups.push(() => f.stop());
    await waitFor(() => client.providerStatus === ProviderStatus.READY, 3000, 'ready');
    expect(events.map((e) => e.name)).toEqual([ProviderEvents.Ready, ProviderEvents.Error, ProviderEvents.Ready]);
  });

  it('stored values for the same context: READY then STALE while the service is unreachable', async () => {
    const f = await fake();
    const storage = new MemoryStorage();
    const first = nextDomain();
    await OpenFeature.setProviderAndWait(first, provider(f.baseUrl, { storage }), { targetingKey: 'u-1', plan: 'gold' });
    await OpenFeature.clearProviders();

    const port = await freePort();
    const domain = nextDomain();
    const events = collect(domain);
    await OpenFeature.setProviderAndWait(domain, provider(`http://127.0.0.1:${port}`, { storage }), { targetingKey: 'u-1', plan: 'gold' });
    const client = OpenFeature.getClient(domain);
    await waitFor(() => client.providerStatus === ProviderStatus.STALE, 1000, 'stale');
    expect(events.map((e) => e.name)).toEqual([ProviderEvents.Ready, ProviderEvents.Stale]);
    expect(client.getBooleanValue('new-checkout', false)).toBe(true);
  });

  it('an initial context without targetingKey is refused', async () => {
    const f = await fake();
    const domain = nextDomain();
    await expect(OpenFeature.setProviderAndWait(domain, provider(f.baseUrl), { plan: 'gold' })).rejects.toThrow(/targetingKey/);
  });
});
