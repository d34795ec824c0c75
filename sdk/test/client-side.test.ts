/** Client-side mode (mobile and client keys) against an in-test server shaped like specs/public.yaml. */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStorage, VexilClientSideClient, type ClientSideOptions, type StorageLike } from '../src/client-side-client.js';
import type { ChangeEvent, VexilError } from '../src/types.js';
import { baseConfig, basic, gold, withCheckoutBase } from './support/fixtures.js';
import { CLIENT_KEY, FakeVexil, freePort, MOBILE_KEY, SERVER_KEY, sleep, waitFor } from './support/fake-vexil.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fake(): Promise<FakeVexil> {
  const f = await new FakeVexil(baseConfig(), { heartbeatMs: 100 }).start();
  cleanups.push(() => f.stop());
  return f;
}

function client(baseUrl: string, options: Partial<ClientSideOptions> = {}): VexilClientSideClient {
  const c = new VexilClientSideClient({
    baseUrl,
    apiKey: CLIENT_KEY,
    logger: null,
    usage: false,
    reconnect: { initialDelayMs: 20, maxDelayMs: 60 },
    ...options,
  });
  cleanups.push(() => c.close());
  return c;
}

describe('values evaluated for one context', () => {
  it('sends the context header and serves the evaluated values', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { context: gold });
    expect(await c.ready()).toBe(true);
    const request = f.requests.find((r) => r.path === '/v1/payload')!;
    expect(request.headers['x-vexil-api-key']).toBe(CLIENT_KEY);
    expect(JSON.parse(request.headers['x-vexil-context'] as string)).toEqual(gold);
    expect(c.boolean('new-checkout', false)).toBe(true);
    expect(c.booleanDetails('new-checkout', false)).toEqual({
      key: 'new-checkout',
      value: true,
      resolvedBy: 'rule',
      reason: 'TARGETING_MATCH',
      flagType: 'boolean',
      revision: 1,
    });
    expect(c.numberDetails('max-items', 0)).toMatchObject({ value: 50, resolvedBy: 'rollout', reason: 'SPLIT' });
    expect(c.stringDetails('banner', '')).toMatchObject({ value: 'Welcome', resolvedBy: 'default', reason: 'DEFAULT' });
    expect(c.json('theme', null)).toEqual({ primary: '#0055ff', dense: false });
    // include_in_client false: not in a client payload
    expect(c.booleanDetails('mobile-only', false)).toMatchObject({ value: false, errorCode: 'FLAG_NOT_FOUND' });
    // no servable value and no declared default: left out
    expect(c.stringDetails('orphan', 'd')).toMatchObject({ value: 'd', errorCode: 'FLAG_NOT_FOUND' });
    expect(c.stringDetails('new-checkout', 'd')).toMatchObject({ value: 'd', errorCode: 'TYPE_MISMATCH', flagType: 'boolean' });
    expect(c.all()).toEqual({ banner: 'Welcome', 'max-items': 50, 'new-checkout': true, theme: { primary: '#0055ff', dense: false } });
    expect(c.allFlags().map((x) => x.key)).toEqual(['banner', 'max-items', 'new-checkout', 'theme']);
  });

  it('mobile keys see the mobile flags; no context sends no context header', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { apiKey: MOBILE_KEY });
    await c.ready();
    expect(f.requests[0]!.headers['x-vexil-context']).toBeUndefined();
    expect(c.boolean('mobile-only', false)).toBe(true);
    expect(c.numberDetails('max-items', 0)).toMatchObject({ value: 20, resolvedBy: 'target' });
  });

  it('writes characters outside ASCII as \\u escapes in the header', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { context: { type: 'user', identifier: 'zoë', attributes: { city: 'Zürich ☃' } } });
    expect(await c.ready()).toBe(true);
    const header = f.requests[0]!.headers['x-vexil-context'] as string;
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(header).toContain('zo\\u00eb');
    expect(JSON.parse(header)).toEqual({ type: 'user', identifier: 'zoë', attributes: [{ key: 'city', values: [{ value: 'Zürich ☃' }] }] });
  });

  it('sends declared defaults, so flags with nothing to serve get them', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { declaredDefaults: [{ key: 'orphan', type: 'string', value: 'declared' }] });
    await c.ready();
    expect(JSON.parse(f.requests[0]!.headers['x-vexil-default-value'] as string)).toEqual([
      { key: 'orphan', type: 'string', value: 'declared' },
    ]);
    expect(c.stringDetails('orphan', 'd')).toMatchObject({ value: 'declared', resolvedBy: 'default', reason: 'DEFAULT' });
  });

  it('an invalid context is refused at construction and by setContext', async () => {
    const f = await fake();
    expect(() => new VexilClientSideClient({ baseUrl: f.baseUrl, apiKey: CLIENT_KEY, context: { type: '', identifier: 'x' } })).toThrow(
      TypeError,
    );
    const c = client(f.baseUrl);
    await expect(c.setContext({ type: 'user' } as never)).rejects.toThrow(TypeError);
  });

  it('a server key gives a server payload, which the client-side client refuses', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { apiKey: SERVER_KEY });
    expect(await c.ready()).toBe(false);
    expect(c.lastError?.code).toBe('WRONG_KEY_KIND');
  });
});

describe('context changes', () => {
  it('setContext re-fetches for the new context and re-opens the stream with it', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { context: basic });
    const changes: ChangeEvent[] = [];
    c.on('change', (e) => changes.push(e));
    await c.ready();
    await waitFor(() => f.streams.size === 1);
    expect(c.boolean('new-checkout', true)).toBe(false);

    expect(await c.setContext(gold)).toBe(true);
    expect(c.getContext()).toEqual(gold);
    expect(c.boolean('new-checkout', false)).toBe(true);
    expect(changes.at(-1)!.keys).toEqual(['new-checkout']);
    const last = f.requests.filter((r) => r.path === '/v1/payload').at(-1)!;
    expect(JSON.parse(last.headers['x-vexil-context'] as string)).toEqual(gold);
    expect(last.headers['if-none-match']).toBeUndefined();
    await waitFor(() => f.streams.size === 1 && f.count('/v1/stream') === 2, 2000, 'stream for the new context');
    const stream = f.requests.filter((r) => r.path === '/v1/stream').at(-1)!;
    expect(JSON.parse(stream.headers['x-vexil-context'] as string)).toEqual(gold);

    // the same context again: nothing fetched
    const n = f.count('/v1/payload');
    expect(await c.setContext({ ...gold })).toBe(true);
    expect(f.count('/v1/payload')).toBe(n);

    // record-form attributes and no context
    expect(await c.setContext({ type: 'user', identifier: 'u-beta', attributes: { plan: 'basic' } })).toBe(true);
    expect(c.jsonDetails('theme', null)).toMatchObject({ value: { primary: '#0055ff', dense: true }, resolvedBy: 'rule' });
    expect(await c.setContext(null)).toBe(true);
    expect(c.number('max-items', 0)).toBe(20);
  });

  it('a response for an older context is never applied', async () => {
    const f = await fake();
    let first = true;
    f.override = (req, res) => {
      // the first payload request (context basic) is answered late, after the switch to gold
      if (!first || req.url !== '/v1/payload') return false;
      first = false;
      setTimeout(() => {
        const flags = [{ key: 'new-checkout', name: 'N', type: 'boolean', value: false, resolved_by: 'target' }];
        res.writeHead(200, { 'content-type': 'application/json', etag: '"late"' });
        res.end(
          JSON.stringify({
            status: 'success',
            data: { kind: 'client', etag: '"late"', revision: 1, environment: { ulid: 'e', key: 'k' }, flags },
          }),
        );
      }, 150);
      return true;
    };
    const c = client(f.baseUrl, { context: basic, requestTimeoutMs: 2000 });
    await waitFor(() => f.count('/v1/payload') === 1);
    expect(await c.setContext(gold)).toBe(true);
    expect(c.boolean('new-checkout', false)).toBe(true);
    await sleep(250);
    expect(c.boolean('new-checkout', false)).toBe(true);
    expect(c.revision).toBe(1);
  });

  it('follows the stream: a change for this context is fetched', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { context: basic });
    await c.ready();
    await waitFor(() => f.streams.size === 1);
    const published = Date.now();
    f.publish(withCheckoutBase(true));
    await waitFor(() => c.boolean('new-checkout', false) === true, 2000, 'new value');
    expect(Date.now() - published).toBeLessThan(1000);
    expect(c.revision).toBe(2);
  });
});

describe('storage', () => {
  it('stores the values and serves them at the next start for the same context, until the service answers', async () => {
    const f = await fake();
    const storage = new MemoryStorage();
    const first = client(f.baseUrl, { context: gold, storage, storageKey: 'flags' });
    await first.ready();
    await first.close();
    const stored = JSON.parse(storage.getItem('flags')!);
    expect(stored.v).toBe(1);
    expect(stored.payload.kind).toBe('client');

    // service down: the stored values, stale
    const port = await freePort();
    const offline = client(`http://127.0.0.1:${port}`, { context: gold, storage, storageKey: 'flags' });
    expect(await offline.ready()).toBe(false);
    expect(offline.status).toBe('stale');
    expect(offline.boolean('new-checkout', false)).toBe(true);

    // another context: the stored values are not used
    const other = client(`http://127.0.0.1:${port}`, { context: basic, storage, storageKey: 'flags' });
    expect(await other.ready()).toBe(false);
    expect(other.status).toBe('not_ready');
    expect(other.booleanDetails('new-checkout', true)).toMatchObject({ value: true, errorCode: 'PROVIDER_NOT_READY' });

    // service up: revalidated with the stored ETag (304)
    const again = client(f.baseUrl, { context: gold, storage, storageKey: 'flags' });
    expect(await again.ready()).toBe(true);
    const last = f.requests.filter((r) => r.path === '/v1/payload').at(-1)!;
    expect(last.headers['if-none-match']).toBe(stored.payload.etag);
    expect(last.status).toBe(304);
  });

  it('works with asynchronous storage and reports a failing one without breaking', async () => {
    const f = await fake();
    const items = new Map<string, string>();
    const asyncStorage: StorageLike = {
      getItem: async (k) => items.get(k) ?? null,
      setItem: async (k, v) => {
        items.set(k, v);
      },
    };
    const c = client(f.baseUrl, { context: gold, storage: asyncStorage });
    await c.ready();
    await waitFor(() => items.has('vexil.payload'));

    const broken: StorageLike = {
      getItem: () => {
        throw new Error('quota');
      },
      setItem: () => Promise.reject(new Error('quota')),
    };
    const errors: VexilError[] = [];
    const d = client(f.baseUrl, { context: gold, storage: broken });
    d.on('error', (e) => errors.push(e));
    expect(await d.ready()).toBe(true);
    expect(d.boolean('new-checkout', false)).toBe(true);
    await waitFor(() => errors.filter((e) => e.code === 'STORAGE').length === 2, 2000, 'storage errors');
  });

  it('a storage that never answers does not hold the start back for long', async () => {
    const f = await fake();
    const stuck: StorageLike = { getItem: () => new Promise(() => {}), setItem: () => {} };
    const c = client(f.baseUrl, { context: gold, storage: stuck, storageTimeoutMs: 50 });
    expect(await c.ready()).toBe(true);
  });

  it('a bootstrap (e.g. from server-side rendering) is served until the service answers', async () => {
    const f = await fake();
    f.hangPayload = true;
    const c = client(f.baseUrl, {
      context: gold,
      bootstrap: {
        kind: 'client',
        etag: '',
        revision: 0,
        environment: { ulid: 'e', key: 'k' },
        flags: [{ key: 'new-checkout', name: 'N', type: 'boolean', value: true, resolved_by: 'rule' }],
      },
    });
    expect(c.status).toBe('stale');
    expect(c.boolean('new-checkout', false)).toBe(true);
  });
});

describe('outages and usage', () => {
  it('keeps the last values through an outage and recovers', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { context: gold });
    await c.ready();
    await waitFor(() => f.streams.size === 1);
    const port = f.port;
    await f.stop();
    await waitFor(() => c.status === 'stale', 3000, 'stale');
    expect(c.boolean('new-checkout', false)).toBe(true);
    f.config = withCheckoutBase(true)({ ...f.config, revision: 5 });
    await f.start(port);
    await waitFor(() => c.status === 'ready' && c.revision === 5, 3000, 'recovered');
  });

  it('reports usage with the current context', async () => {
    const f = await fake();
    const c = client(f.baseUrl, { context: gold, usage: { intervalMs: 60_000 } });
    await c.ready();
    c.boolean('new-checkout', false);
    c.boolean('new-checkout', false);
    c.boolean('unknown', false);
    await c.close();
    expect(f.usage).toEqual([{ key: 'new-checkout', body: { count: 2, context: gold }, apiKey: CLIENT_KEY }]);
  });
});
