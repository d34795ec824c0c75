/** The OpenFeature server provider through the real @openfeature/server-sdk, against the in-test server. */
import { afterEach, describe, expect, it } from 'vitest';
import { OpenFeature, ProviderEvents, ProviderStatus, type EventDetails } from '@openfeature/server-sdk';
import { VexilServerProvider } from '../src/openfeature/server.js';
import { fromOpenFeatureContext } from '../src/openfeature/context.js';
import { VexilServerClient } from '../src/server-client.js';
import { baseConfig, withCheckoutBase } from './support/fixtures.js';
import { FakeVexil, freePort, SERVER_KEY, waitFor } from './support/fake-vexil.js';

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
OpenFeature.setLogger(silent);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await OpenFeature.clearProviders();
});

let domains = 0;
const nextDomain = () => `of-${domains++}`;

async function fake(): Promise<FakeVexil> {
  const f = await new FakeVexil(baseConfig(), { heartbeatMs: 100 }).start();
  cleanups.push(() => f.stop());
  return f;
}

function provider(baseUrl: string, extra: Record<string, unknown> = {}): VexilServerProvider {
  return new VexilServerProvider({
    baseUrl,
    apiKey: SERVER_KEY,
    logger: null,
    usage: false,
    reconnect: { initialDelayMs: 20, maxDelayMs: 60 },
    ...extra,
  });
}

function collect(domain: string): { name: string; details?: EventDetails }[] {
  const events: { name: string; details?: EventDetails }[] = [];
  const client = OpenFeature.getClient(domain);
  for (const e of [ProviderEvents.Ready, ProviderEvents.Error, ProviderEvents.Stale, ProviderEvents.ConfigurationChanged]) {
    client.addHandler(e, (details) => events.push({ name: e, details }));
  }
  return events;
}

describe('resolution through the OpenFeature server SDK', () => {
  it('maps targetingKey, contextType and attributes, and resolved_by to reasons', async () => {
    const f = await fake();
    const domain = nextDomain();
    await OpenFeature.setProviderAndWait(domain, provider(f.baseUrl));
    const client = OpenFeature.getClient(domain);
    expect(client.providerStatus).toBe(ProviderStatus.READY);
    expect(client.metadata.providerMetadata.name).toBe('vexil');

    const rule = await client.getBooleanDetails('new-checkout', false, { targetingKey: 'u-1', plan: 'gold' });
    expect(rule).toMatchObject({ flagKey: 'new-checkout', value: true, reason: 'TARGETING_MATCH', variant: 'true' });
    expect(rule.flagMetadata).toEqual({ resolved_by: 'rule', type: 'boolean', revision: 1 });
    expect(rule.errorCode).toBeUndefined();
    expect(await client.getBooleanDetails('new-checkout', true, { targetingKey: 'u-2', plan: ['basic', 'silver'] })).toMatchObject({
      value: false,
      reason: 'STATIC',
      variant: 'false',
    });
    expect(await client.getNumberDetails('max-items', 0, { targetingKey: 'u-3' })).toMatchObject({
      value: 50,
      reason: 'SPLIT',
      variant: '50',
    });
    expect(await client.getNumberDetails('max-items', 0, {})).toMatchObject({ value: 20, reason: 'STATIC' });
    expect(await client.getStringDetails('banner', 'x', { targetingKey: 'u-1' })).toMatchObject({
      value: 'Welcome',
      reason: 'DEFAULT',
      variant: 'Welcome',
    });
    const theme = await client.getObjectDetails('theme', {}, { targetingKey: 'u-beta' });
    expect(theme).toMatchObject({
      value: { primary: '#0055ff', dense: true },
      reason: 'TARGETING_MATCH',
      variant: '{"primary":"#0055ff","dense":true}',
    });
    // contextType selects the Vexil context type: the segment lists identifiers whatever the type, rules see the type
    expect((await client.getObjectDetails('theme', {}, { targetingKey: 'u-beta', contextType: 'organization' })).value).toEqual({
      primary: '#0055ff',
      dense: true,
    });
    expect(await client.getBooleanValue('new-checkout', false, { targetingKey: 'u-1', plan: 'gold' })).toBe(true);
  });

  it('errors: FLAG_NOT_FOUND, TYPE_MISMATCH, TARGETING_KEY_MISSING, INVALID_CONTEXT', async () => {
    const f = await fake();
    const domain = nextDomain();
    await OpenFeature.setProviderAndWait(domain, provider(f.baseUrl));
    const client = OpenFeature.getClient(domain);
    expect(await client.getBooleanDetails('nope', true, { targetingKey: 'u' })).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: 'FLAG_NOT_FOUND',
    });
    expect(await client.getStringDetails('new-checkout', 'd', { targetingKey: 'u' })).toMatchObject({
      value: 'd',
      reason: 'ERROR',
      errorCode: 'TYPE_MISMATCH',
    });
    expect(await client.getBooleanDetails('new-checkout', true, { plan: 'gold' })).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: 'TARGETING_KEY_MISSING',
    });
    expect(await client.getBooleanDetails('new-checkout', true, { targetingKey: '' })).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: 'INVALID_CONTEXT',
    });
    expect(await client.getBooleanDetails('new-checkout', true, { targetingKey: 'u', contextType: '' })).toMatchObject({
      errorCode: 'INVALID_CONTEXT',
    });
  });

  it('events: READY at start, CONFIGURATION_CHANGED with the changed keys, STALE on an outage, READY on recovery', async () => {
    const f = await fake();
    const domain = nextDomain();
    const events = collect(domain);
    await OpenFeature.setProviderAndWait(domain, provider(f.baseUrl));
    const client = OpenFeature.getClient(domain);
    expect(events.map((e) => e.name)).toEqual([ProviderEvents.Ready]);
    await waitFor(() => f.streams.size === 1);

    f.publish(withCheckoutBase(true));
    await waitFor(() => events.some((e) => e.name === ProviderEvents.ConfigurationChanged), 2000, 'configuration changed');
    expect(events.find((e) => e.name === ProviderEvents.ConfigurationChanged)!.details).toMatchObject({
      flagsChanged: ['new-checkout'],
      providerName: 'vexil',
    });
    expect(await client.getBooleanValue('new-checkout', false, { targetingKey: 'u-2' })).toBe(true);

    const port = f.port;
    await f.stop();
    await waitFor(() => events.some((e) => e.name === ProviderEvents.Stale), 3000, 'stale');
    expect(client.providerStatus).toBe(ProviderStatus.STALE);
    // the last payload is still served
    expect(await client.getBooleanDetails('new-checkout', false, { targetingKey: 'u-2' })).toMatchObject({ value: true, reason: 'STATIC' });

    await f.start(port);
    await waitFor(() => client.providerStatus === ProviderStatus.READY, 3000, 'ready again');
    expect(events.map((e) => e.name)).toEqual([
      ProviderEvents.Ready,
      ProviderEvents.ConfigurationChanged,
      ProviderEvents.Stale,
      ProviderEvents.Ready,
    ]);
  });

  it('events: ERROR when the service is unreachable at start, READY when it comes up', async () => {
    const port = await freePort();
    const domain = nextDomain();
    const events = collect(domain);
    // Degraded start: setProviderAndWait resolves, then the provider announces ERROR.
    await OpenFeature.setProviderAndWait(domain, provider(`http://127.0.0.1:${port}`));
    const client = OpenFeature.getClient(domain);
    await waitFor(() => client.providerStatus === ProviderStatus.ERROR, 2000, 'error');
    expect(events.map((e) => e.name)).toEqual([ProviderEvents.Ready, ProviderEvents.Error]);
    expect(events[1]?.details?.message).toMatch(/no payload yet, serving defaults/);
    expect(await client.getBooleanDetails('new-checkout', true, { targetingKey: 'u-1', plan: 'gold' })).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: 'PROVIDER_NOT_READY',
    });
    const f = new FakeVexil(baseConfig(), { heartbeatMs: 100 });
    await f.start(port);
    cleanups.push(() => f.stop());
    await waitFor(() => client.providerStatus === ProviderStatus.READY, 3000, 'ready');
    expect(events.map((e) => e.name)).toEqual([ProviderEvents.Ready, ProviderEvents.Error, ProviderEvents.Ready]);
    expect(await client.getBooleanValue('new-checkout', false, { targetingKey: 'u-1', plan: 'gold' })).toBe(true);
  });

  it('with a bootstrap and the service unreachable: READY, then STALE; serves the bootstrap', async () => {
    const port = await freePort();
    const domain = nextDomain();
    const events = collect(domain);
    await OpenFeature.setProviderAndWait(domain, provider(`http://127.0.0.1:${port}`, { bootstrap: baseConfig() }));
    const client = OpenFeature.getClient(domain);
    await waitFor(() => client.providerStatus === ProviderStatus.STALE, 1000, 'stale');
    expect(events.map((e) => e.name)).toEqual([ProviderEvents.Ready, ProviderEvents.Stale]);
    expect(await client.getBooleanValue('new-checkout', false, { targetingKey: 'u-1', plan: 'gold' })).toBe(true);
  });

  it('a shared client is not closed with the provider; an owned one is', async () => {
    const f = await fake();
    const shared = new VexilServerClient({ baseUrl: f.baseUrl, apiKey: SERVER_KEY, logger: null, usage: false });
    cleanups.push(() => shared.close());
    const domain = nextDomain();
    await OpenFeature.setProviderAndWait(domain, new VexilServerProvider(shared));
    await OpenFeature.clearProviders();
    expect(shared.status).toBe('ready');
    const owned = provider(f.baseUrl);
    await OpenFeature.setProviderAndWait(nextDomain(), owned);
    await OpenFeature.clearProviders();
    expect(owned.client.status).toBe('closed');
  });
});

describe('OpenFeature context mapping', () => {
  it('converts members to attribute strings like the OFREP endpoints', () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    expect(
      fromOpenFeatureContext({
        targetingKey: 'u-1',
        contextType: 'organization',
        plan: 'gold',
        beta: true,
        seats: 25,
        ratio: 0.5,
        roles: ['admin', 'billing', 3],
        since: when,
        meta: { a: 1 },
        gone: null,
        nothing: undefined,
      }),
    ).toEqual({
      ok: true,
      context: {
        type: 'organization',
        identifier: 'u-1',
        attributes: [
          { key: 'plan', values: [{ value: 'gold' }] },
          { key: 'beta', values: [{ value: 'true' }] },
          { key: 'seats', values: [{ value: '25' }] },
          { key: 'ratio', values: [{ value: '0.5' }] },
          { key: 'roles', values: [{ value: 'admin' }, { value: 'billing' }, { value: '3' }] },
          { key: 'since', values: [{ value: '2026-01-02T03:04:05.000Z' }] },
          { key: 'meta', values: [{ value: '{"a":1}' }] },
        ],
      },
    });
    expect(fromOpenFeatureContext({ targetingKey: 'u' })).toEqual({ ok: true, context: { type: 'user', identifier: 'u' } });
    expect(fromOpenFeatureContext({})).toEqual({ ok: true, context: null });
    expect(fromOpenFeatureContext(undefined)).toEqual({ ok: true, context: null });
    expect(fromOpenFeatureContext({ gone: null })).toEqual({ ok: true, context: null });
    expect(fromOpenFeatureContext({ plan: 'gold' })).toMatchObject({ ok: false, code: 'TARGETING_KEY_MISSING' });
    expect(fromOpenFeatureContext({ contextType: 'user' })).toMatchObject({ ok: false, code: 'TARGETING_KEY_MISSING' });
    expect(fromOpenFeatureContext({ targetingKey: 5 })).toMatchObject({ ok: false, code: 'INVALID_CONTEXT' });
    expect(fromOpenFeatureContext({ targetingKey: 'x'.repeat(1001) })).toMatchObject({ ok: false, code: 'INVALID_CONTEXT' });
    expect(fromOpenFeatureContext({ targetingKey: 'u', contextType: 'x'.repeat(201) })).toMatchObject({
      ok: false,
      code: 'INVALID_CONTEXT',
    });
  });
});
