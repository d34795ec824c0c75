/** Server-side mode against an in-test server shaped like specs/public.yaml. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VexilServerClient, type ServerClientOptions } from '../src/server-client.js';
import type { ChangeEvent, VexilError } from '../src/types.js';
import { baseConfig, basic, beta, gold, withCheckoutBase } from './support/fixtures.js';
import { CLIENT_KEY, FakeVexil, freePort, SERVER_KEY, sleep, waitFor } from './support/fake-vexil.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fake(config = baseConfig()): Promise<FakeVexil> {
  const f = await new FakeVexil(config, { heartbeatMs: 100 }).start();
  cleanups.push(() => f.stop());
  return f;
}

function client(f: { baseUrl: string } | string, options: Partial<ServerClientOptions> = {}): VexilServerClient {
  const c = new VexilServerClient({
    baseUrl: typeof f === 'string' ? f : f.baseUrl,
    apiKey: SERVER_KEY,
    logger: null,
    reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    pollIntervalMs: 1000,
    usage: false,
    ...options,
  });
  cleanups.push(() => c.close());
  return c;
}

function recordEvents(c: VexilServerClient) {
  const events: { name: string; at: number; detail?: unknown }[] = [];
  c.on('ready', () => events.push({ name: 'ready', at: Date.now() }));
  c.on('stale', (e) => events.push({ name: 'stale', at: Date.now(), detail: e }));
  c.on('error', (e) => events.push({ name: 'error', at: Date.now(), detail: e }));
  c.on('change', (e) => events.push({ name: 'change', at: Date.now(), detail: e }));
  return events;
}

describe('start and local evaluation', () => {
  it('fetches the payload once with the key header and evaluates locally', async () => {
    const f = await fake();
    const c = client(f);
    expect(c.status).toBe('not_ready');
    expect(await c.ready()).toBe(true);
    expect(c.status).toBe('ready');
    expect(c.isReady()).toBe(true);
    const payloadRequest = f.requests.find((r) => r.path === '/v1/payload')!;
    expect(payloadRequest.headers['x-vexil-api-key']).toBe(SERVER_KEY);
    expect(payloadRequest.headers['if-none-match']).toBeUndefined();
    expect(c.revision).toBe(1);
    expect(c.environment).toEqual({ ulid: 'env_01HZY3V4J7N9Q2R5T8W1X4Z6B3', key: 'production' });
    expect(c.keys()).toEqual(['banner', 'max-items', 'mobile-only', 'new-checkout', 'orphan', 'theme']);

    const before = f.count('/v1/payload');
    for (let i = 0; i < 100; i++) {
      expect(c.boolean('new-checkout', gold, false)).toBe(true);
      expect(c.boolean('new-checkout', basic, true)).toBe(false);
    }
    expect(f.count('/v1/payload')).toBe(before);
  });

  it('typed methods and details: value, resolvedBy, reason for each resolution', async () => {
    const f = await fake();
    const c = client(f);
    await c.ready();
    expect(c.booleanDetails('new-checkout', gold, false)).toEqual({
      key: 'new-checkout',
      value: true,
      resolvedBy: 'rule',
      reason: 'TARGETING_MATCH',
      flagType: 'boolean',
      revision: 1,
    });
    expect(c.booleanDetails('new-checkout', basic, true)).toMatchObject({ value: false, resolvedBy: 'target', reason: 'STATIC' });
    expect(c.numberDetails('max-items', gold, 0)).toMatchObject({ value: 50, resolvedBy: 'rollout', reason: 'SPLIT' });
    expect(c.numberDetails('max-items', null, 0)).toMatchObject({ value: 20, resolvedBy: 'target', reason: 'STATIC' });
    expect(c.stringDetails('banner', gold, 'x')).toMatchObject({ value: 'Welcome', resolvedBy: 'default', reason: 'DEFAULT' });
    expect(c.jsonDetails('theme', beta, {})).toMatchObject({ value: { primary: '#0055ff', dense: true }, resolvedBy: 'rule' });
    expect(c.json('theme', gold, {})).toEqual({ primary: '#0055ff', dense: false });
    expect(c.number('max-items', gold, 0)).toBe(50);
    expect(c.string('banner', undefined, 'x')).toBe('Welcome');
    // a flag with nothing to serve: the caller's default is served as a declared default
    expect(c.stringDetails('orphan', gold, 'mine')).toMatchObject({ value: 'mine', resolvedBy: 'default', reason: 'DEFAULT' });
    expect(c.stringDetails('orphan', gold, 'mine').errorCode).toBeUndefined();
  });

  it('accepts attributes as a record and converts values to strings', async () => {
    const f = await fake();
    const c = client(f);
    await c.ready();
    expect(c.boolean('new-checkout', { type: 'user', identifier: 'u', attributes: { plan: 'gold' } }, false)).toBe(true);
    expect(
      c.boolean(
        'new-checkout',
        { type: 'user', identifier: 'u', attributes: { plan: ['basic', 'platinum'], seats: 3, beta: true } },
        false,
      ),
    ).toBe(true);
    expect(c.boolean('new-checkout', { type: 'user', identifier: 'u', attributes: { plan: null } }, true)).toBe(false);
  });

  it('errors return the caller default with an error code, and never throw', async () => {
    const f = await fake();
    const c = client(f);
    await c.ready();
    expect(c.booleanDetails('nope', gold, true)).toMatchObject({
      value: true,
      resolvedBy: null,
      reason: 'ERROR',
      errorCode: 'FLAG_NOT_FOUND',
    });
    expect(c.stringDetails('new-checkout', gold, 'd')).toMatchObject({
      value: 'd',
      reason: 'ERROR',
      errorCode: 'TYPE_MISMATCH',
      flagType: 'boolean',
    });
    expect(c.stringDetails('new-checkout', gold, 'd').errorMessage).toContain('boolean');
    expect(c.boolean('new-checkout', { type: '', identifier: 'x' }, true)).toBe(true);
    expect(c.booleanDetails('new-checkout', { type: 'user', identifier: '' }, true).errorCode).toBe('INVALID_CONTEXT');
    const hostile: unknown[] = [
      42,
      'user',
      { type: 'user' },
      { type: 'user', identifier: 7 },
      { type: 'user', identifier: 'x', attributes: 'plan=gold' },
      { type: 'user', identifier: 'x', attributes: { plan: { nested: 1 } } },
      { type: 'user', identifier: 'x', attributes: [{ key: 'plan', values: 'gold' }] },
      { type: 'user', identifier: 'x', attributes: [null] },
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('boom');
          },
        },
      ),
      {
        get type(): string {
          throw new Error('getter');
        },
        identifier: 'x',
      },
    ];
    for (const ctx of hostile) {
      for (const key of ['new-checkout', 'theme', 'max-items', 'banner', 'nope', undefined, null, 3]) {
        expect(() => c.boolean(key as string, ctx as never, true)).not.toThrow();
        const d = c.booleanDetails(key as string, ctx as never, true);
        expect(typeof d.value).toBe('boolean');
        expect(() => c.json(key as string, ctx as never, null)).not.toThrow();
        expect(() => c.numberDetails(key as string, ctx as never, 1)).not.toThrow();
      }
    }
    expect(
      c.booleanDetails('new-checkout', { type: 'user', identifier: 'x', attributes: [{ key: 'plan', values: 'gold' }] } as never, true)
        .errorCode,
    ).toBe('INVALID_CONTEXT');
  });

  it('evaluation never waits on the network: defaults while the first request hangs', async () => {
    const f = await fake();
    f.hangPayload = true;
    const c = client(f, { requestTimeoutMs: 60_000 });
    await waitFor(() => f.count('/v1/payload') === 1);
    const start = performance.now();
    const d = c.booleanDetails('new-checkout', gold, true);
    expect(performance.now() - start).toBeLessThan(50);
    expect(d).toMatchObject({ value: true, reason: 'ERROR', errorCode: 'PROVIDER_NOT_READY', revision: null });
    expect(c.status).toBe('not_ready');
    expect(c.isReady()).toBe(false);
    expect(await c.ready(50)).toBe(false);
  });

  it('a payload request that times out is a NETWORK error', async () => {
    const f = await fake();
    f.hangPayload = true;
    const c = client(f, { requestTimeoutMs: 100 });
    const events = recordEvents(c);
    expect(await c.ready()).toBe(false);
    expect(c.status).toBe('not_ready');
    expect((events.find((e) => e.name === 'error')?.detail as VexilError).code).toBe('NETWORK');
    expect(c.lastError?.message).toContain('timed out');
  });
});

describe('the stream', () => {
  it('a published change arrives through the stream and is served at once', async () => {
    const f = await fake();
    const c = client(f);
    const events = recordEvents(c);
    await c.ready();
    await waitFor(() => f.streams.size === 1, 2000, 'stream');
    const streamRequest = f.requests.find((r) => r.path === '/v1/stream')!;
    expect(streamRequest.headers['x-vexil-api-key']).toBe(SERVER_KEY);
    expect(streamRequest.headers['accept']).toBe('text/event-stream');
    expect(c.boolean('new-checkout', basic, true)).toBe(false);

    const published = Date.now();
    f.publish(withCheckoutBase(true));
    await waitFor(() => c.boolean('new-checkout', basic, false) === true, 2000, 'new value');
    expect(Date.now() - published).toBeLessThan(1000);
    expect(c.revision).toBe(2);
    const change = events.find((e) => e.name === 'change')!.detail as ChangeEvent;
    expect(change.keys).toEqual(['new-checkout']);
    expect(change.revision).toBe(2);
    // the re-fetch was conditional on the ETag held
    const refetch = f.requests.filter((r) => r.path === '/v1/payload').at(-1)!;
    expect(refetch.headers['if-none-match']).toMatch(/^"srv-1-/);
    expect(refetch.status).toBe(200);
  });

  it('an announcement of the ETag already held causes no request', async () => {
    const f = await fake();
    const c = client(f);
    await c.ready();
    await waitFor(() => f.streams.size === 1);
    await sleep(50);
    expect(f.count('/v1/payload')).toBe(1);
    // a new stream announces the same ETag on connect
    f.endStreams();
    await waitFor(() => f.streams.size === 1 && f.count('/v1/stream') === 2, 2000, 'reconnection');
    await sleep(50);
    expect(f.count('/v1/payload')).toBe(1);
    expect(c.status).toBe('ready');
  });

  it('heartbeat comments keep the stream open; silence beyond the idle timeout reconnects', async () => {
    const f = await fake();
    const c = client(f, { streamIdleTimeoutMs: 300 });
    await c.ready();
    await waitFor(() => f.streams.size === 1);
    await sleep(700); // heartbeats every 100 ms
    expect(f.count('/v1/stream')).toBe(1);
    f.silentStream = true;
    await waitFor(() => f.count('/v1/stream') >= 2, 3000, 'reconnection after silence');
  });

  it('reconnects with exponential backoff and jitter while the stream is refused', async () => {
    const f = await fake();
    f.streamStatus = 503;
    const c = client(f, { reconnect: { initialDelayMs: 40, maxDelayMs: 320 }, random: () => 0.5 });
    await c.ready();
    await waitFor(() => f.count('/v1/stream') >= 6, 5000, 'six attempts');
    const times = f.requests.filter((r) => r.path === '/v1/stream').map((r) => r.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // random 0.5 -> 3/4 of min(max, initial * 2^n): 30, 60, 120, 240, 240
    const expected = [30, 60, 120, 240, 240];
    // The upper bound leaves a loaded machine room to be late, yet stays below 480, where the
    // last gap would be without the 320 ms cap.
    gaps.slice(0, 5).forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(expected[i]! - 5);
      expect(gap).toBeLessThan(expected[i]! + 230);
    });
    // served all along: a refused stream is not an outage of the payload
    expect(c.boolean('new-checkout', gold, false)).toBe(true);
  });

  it('falls back to ETag polling while the stream is unavailable, and picks changes up', async () => {
    const f = await fake();
    f.streamStatus = 404;
    const c = client(f, { pollIntervalMs: 1000, reconnect: { initialDelayMs: 5000, maxDelayMs: 5000 } });
    await c.ready();
    await waitFor(() => f.count('/v1/payload') >= 2, 3000, 'first poll');
    const poll = f.requests.filter((r) => r.path === '/v1/payload')[1]!;
    expect(poll.headers['if-none-match']).toMatch(/^"srv-1-/);
    expect(poll.status).toBe(304);
    f.publish(withCheckoutBase(true));
    await waitFor(() => c.boolean('new-checkout', basic, false) === true, 3000, 'change by polling');
    expect(c.status).toBe('ready');
  });

  it('with stream: false it only polls', async () => {
    const f = await fake();
    const c = client(f, { stream: false, pollIntervalMs: 1000 });
    await c.ready();
    await waitFor(() => f.count('/v1/payload') >= 2, 3000, 'a poll');
    expect(f.count('/v1/stream')).toBe(0);
  });

  it('stops polling once the stream is back', async () => {
    const f = await fake();
    f.streamStatus = 503;
    const c = client(f, { pollIntervalMs: 1000, reconnect: { initialDelayMs: 1500, maxDelayMs: 1500 }, random: () => 1 });
    await c.ready();
    f.streamStatus = undefined;
    await waitFor(() => f.streams.size === 1, 4000, 'stream back');
    const polls = f.count('/v1/payload');
    await sleep(1300);
    expect(f.count('/v1/payload')).toBe(polls);
  });
});

describe('outages', () => {
  it('keeps the last good payload when the server stops, reports stale, recovers on restart', async () => {
    const f = await fake();
    const c = client(f, { reconnect: { initialDelayMs: 20, maxDelayMs: 50 } });
    const events = recordEvents(c);
    await c.ready();
    await waitFor(() => f.streams.size === 1);
    const port = f.port;
    await f.stop();
    await waitFor(() => c.status === 'stale', 3000, 'stale');
    expect(events.filter((e) => e.name === 'stale')).toHaveLength(1);
    expect((events.find((e) => e.name === 'stale')!.detail as VexilError).code).toBe('NETWORK');
    expect(c.boolean('new-checkout', gold, false)).toBe(true);
    expect(c.booleanDetails('new-checkout', basic, true)).toMatchObject({ value: false, reason: 'STATIC' });
    expect(c.isReady()).toBe(true);

    f.config = withCheckoutBase(true)({ ...f.config, revision: 2 });
    await f.start(port);
    await waitFor(() => c.status === 'ready', 3000, 'ready again');
    await waitFor(() => c.boolean('new-checkout', basic, false) === true, 3000, 'new value after restart');
    expect(events.filter((e) => e.name === 'ready').length).toBe(2);
  });

  it('server errors and unusable payloads leave the last good payload in place', async () => {
    const f = await fake();
    const c = client(f, { stream: false, pollIntervalMs: 1000 });
    const events = recordEvents(c);
    await c.ready();
    f.payloadStatus = 500;
    f.publish(withCheckoutBase(true));
    expect(await c.refresh()).toBe(false);
    expect(c.status).toBe('stale');
    expect(events.find((e) => e.name === 'error')!.detail as VexilError).toMatchObject({ code: 'HTTP', status: 500 });
    expect(c.boolean('new-checkout', basic, true)).toBe(false);
    f.payloadStatus = undefined;
    f.payloadBody = '{"status":"success","data":{"kind":"server"';
    expect(await c.refresh()).toBe(false);
    expect(c.lastError?.code).toBe('INVALID_PAYLOAD');
    f.payloadBody = JSON.stringify({
      status: 'success',
      data: { kind: 'server', etag: 'x', revision: 3, environment: {}, config: { flags: 'no' } },
    });
    expect(await c.refresh()).toBe(false);
    expect(c.lastError?.code).toBe('INVALID_PAYLOAD');
    expect(c.boolean('new-checkout', basic, true)).toBe(false);
    expect(c.revision).toBe(1);
    f.payloadBody = undefined;
    expect(await c.refresh()).toBe(true);
    expect(c.status).toBe('ready');
    expect(c.boolean('new-checkout', basic, false)).toBe(true);
  });

  it('starting with the service unreachable: not ready, defaults, then recovery when it comes up', async () => {
    const port = await freePort();
    const c = client(`http://127.0.0.1:${port}`, { reconnect: { initialDelayMs: 20, maxDelayMs: 60 } });
    const events = recordEvents(c);
    expect(await c.ready()).toBe(false);
    expect(c.status).toBe('not_ready');
    expect(c.isReady()).toBe(false);
    expect(c.lastError?.code).toBe('NETWORK');
    expect(c.booleanDetails('new-checkout', gold, false)).toMatchObject({ value: false, errorCode: 'PROVIDER_NOT_READY' });
    expect(c.string('banner', null, 'offline default')).toBe('offline default');
    expect(events.some((e) => e.name === 'stale')).toBe(false);

    const f = new FakeVexil(baseConfig(), { heartbeatMs: 100 });
    await f.start(port);
    cleanups.push(() => f.stop());
    await waitFor(() => c.status === 'ready', 3000, 'recovery');
    expect(c.boolean('new-checkout', gold, false)).toBe(true);
    expect(events.filter((e) => e.name === 'ready')).toHaveLength(1);
    expect(c.lastError).toBeUndefined();
  });

  it('a refused key (401) is an UNAUTHORIZED error and the client stays not ready', async () => {
    const f = await fake();
    const c = client(f, { apiKey: 'srv_wrong' });
    const errors: VexilError[] = [];
    c.on('error', (e) => errors.push(e));
    expect(await c.ready()).toBe(false);
    expect(errors[0]).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(c.status).toBe('not_ready');
  });

  it('a client key gives a client payload, which the server client refuses (WRONG_KEY_KIND)', async () => {
    const f = await fake();
    const c = client(f, { apiKey: CLIENT_KEY });
    expect(await c.ready()).toBe(false);
    expect(c.lastError?.code).toBe('WRONG_KEY_KIND');
    expect(c.status).toBe('not_ready');
  });

  it('without listeners, errors go to the logger', async () => {
    const port = await freePort();
    const warnings: string[] = [];
    const c = client(`http://127.0.0.1:${port}`, { logger: { warn: (m) => warnings.push(m) } });
    await c.ready();
    expect(warnings[0]).toMatch(/^\[vexil\] GET \/v1\/payload: /);
    // retries repeat the same failures: each message is logged once a minute at most
    await waitFor(() => (c as unknown as { sync: { streamAttempts: number } }).sync.streamAttempts >= 4, 3000, 'retries');
    expect(new Set(warnings).size).toBe(warnings.length);
    expect(warnings.length).toBeLessThanOrEqual(2);
  });
});

describe('bootstrap', () => {
  it('an object is served at once (stale) until the service confirms it', async () => {
    const f = await fake(baseConfig(1));
    f.hangPayload = true;
    const c = client(f, { bootstrap: withCheckoutBase(true)(baseConfig(0)) });
    expect(c.status).toBe('stale');
    expect(c.isReady()).toBe(true);
    expect(c.boolean('new-checkout', basic, false)).toBe(true);
    expect(c.revision).toBe(0);
    f.hangPayload = false;
    expect(await c.refresh()).toBe(true);
    expect(c.status).toBe('ready');
    expect(c.boolean('new-checkout', basic, true)).toBe(false);
  });

  it('a bootstrapped payload with its ETag is confirmed by a 304', async () => {
    const f = await fake();
    const seed = client(f);
    await seed.ready();
    const payload = seed.getPayload()!;
    await seed.close();
    const c = client(f, { bootstrap: { status: 'success', data: payload } });
    expect(c.status).toBe('stale');
    expect(await c.ready()).toBe(true);
    const last = f.requests.filter((r) => r.path === '/v1/payload').at(-1)!;
    expect(last.headers['if-none-match']).toBe(payload.etag);
    expect(last.status).toBe(304);
  });

  it('a file is read at start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vexil-sdk-'));
    // Removed whatever happens in the test, after both clients are closed.
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
      expect(existsSync(dir)).toBe(false);
    });
    const path = join(dir, 'payload.json');
    writeFileSync(
      path,
      JSON.stringify({ kind: 'server', etag: '"x"', revision: 7, environment: { ulid: 'e', key: 'k' }, config: { ...baseConfig(7) } }),
    );
    const c = new VexilServerClient({ offline: true, bootstrap: { file: path }, logger: null });
    cleanups.push(() => c.close());
    expect(c.status).toBe('not_ready');
    expect(await c.ready()).toBe(true);
    expect(c.revision).toBe(7);
    expect(c.boolean('new-checkout', gold, false)).toBe(true);
    const port = await freePort();
    const online = client(`http://127.0.0.1:${port}`, { bootstrap: { file: path } });
    expect(await online.ready()).toBe(false);
    expect(online.status).toBe('stale');
    expect(online.boolean('new-checkout', gold, false)).toBe(true);
  });

  it('an unreadable or invalid bootstrap is reported and ignored', async () => {
    const errors: VexilError[] = [];
    const missing = new VexilServerClient({ offline: true, bootstrap: { file: '/nonexistent/vexil.json' }, logger: null });
    missing.on('error', (e) => errors.push(e));
    expect(await missing.ready()).toBe(false);
    expect(errors[0]?.code).toBe('BOOTSTRAP');
    const invalid = new VexilServerClient({ offline: true, bootstrap: { kind: 'client' } as never, logger: null });
    invalid.on('error', (e) => errors.push(e));
    await sleep(0);
    expect(errors[1]?.code).toBe('BOOTSTRAP');
    expect(invalid.status).toBe('not_ready');
    expect(invalid.boolean('x', null, true)).toBe(true);
  });

  it('offline: no request at all', async () => {
    const f = await fake();
    const c = new VexilServerClient({ offline: true, baseUrl: f.baseUrl, apiKey: SERVER_KEY, bootstrap: baseConfig(), logger: null });
    expect(await c.ready()).toBe(true);
    c.boolean('new-checkout', gold, false);
    await c.close();
    expect(f.requests).toHaveLength(0);
  });

  it('clientPayload() evaluates for one context, for a browser bootstrap', async () => {
    const c = new VexilServerClient({ offline: true, bootstrap: baseConfig(), logger: null });
    const p = c.clientPayload(gold, 'client')!;
    expect(p.kind).toBe('client');
    expect(p.flags.map((x) => x.key)).toEqual(['banner', 'max-items', 'new-checkout', 'theme']);
    expect(p.flags.find((x) => x.key === 'new-checkout')).toEqual({
      key: 'new-checkout',
      name: 'Flag new-checkout',
      type: 'boolean',
      value: true,
      resolved_by: 'rule',
    });
    expect(c.allFlags(null).map((o) => o.key)).toContain('mobile-only');
  });
});

describe('usage reporting', () => {
  it('counts uses per flag and sends them in batches with the latest context', async () => {
    const f = await fake();
    const c = client(f, { usage: { intervalMs: 100 } });
    await c.ready();
    for (let i = 0; i < 5; i++) c.boolean('new-checkout', gold, false);
    c.boolean('new-checkout', basic, false);
    c.string('banner', null, 'x');
    c.boolean('unknown-flag', gold, false);
    await waitFor(() => f.usage.length === 2 && c.usageStats!.sent === 7, 2000, 'usage reports');
    const byKey = Object.fromEntries(f.usage.map((u) => [u.key, u.body]));
    expect(byKey['new-checkout']).toEqual({ count: 6, context: basic });
    expect(byKey['banner']).toEqual({ count: 1 });
    expect(f.usage.every((u) => u.apiKey === SERVER_KEY)).toBe(true);
    expect(c.usageStats).toEqual({ sent: 7, dropped: 0, failedRequests: 0 });
  });

  it("sends the distinct contexts a split served with the flag's report, up to 100, for its exposure counts", async () => {
    const base = baseConfig();
    const split = {
      attribute: null,
      shares: [
        { variant: 'A', value: 'A', weight: 50000 },
        { variant: 'B', value: 'B', weight: 50000 },
      ],
    };
    const config = {
      ...base,
      flags: base.flags.map((f) => (f.key === 'banner' ? { ...f, serving: { value: 'base', rules: [], split } } : f)),
    };
    const f = await fake(config);
    const c = client(f, { usage: { intervalMs: 60_000 } });
    await c.ready();
    const user = (i: number) => ({ type: 'user', identifier: `u-${i}` });
    for (let i = 0; i < 150; i++) {
      const details = c.stringDetails('banner', user(i % 120), 'x');
      expect(details).toMatchObject({ reason: 'SPLIT', split: { rule: null, weight: 50000 } });
    }
    c.stringDetails('banner', null, 'x'); // no context: the base value, no exposure
    c.boolean('new-checkout', gold, false); // no split: no contexts
    await c.flushUsage();
    const banner = f.usage.find((u) => u.key === 'banner')!.body as { count: number; context: unknown; contexts: { identifier: string }[] };
    expect(banner.count).toBe(151);
    expect(banner.contexts).toHaveLength(100);
    expect(new Set(banner.contexts.map((x) => x.identifier)).size).toBe(100);
    expect(banner.contexts[0]).toEqual(user(0));
    expect(f.usage.find((u) => u.key === 'new-checkout')!.body).toEqual({ count: 1, context: gold });
  });

  it('is bounded: flags beyond maxPendingFlags are dropped, big counts are split at 10 000', async () => {
    const f = await fake();
    const c = client(f, { usage: { intervalMs: 60_000, maxPendingFlags: 2 } });
    await c.ready();
    for (let i = 0; i < 25_000; i++) c.boolean('new-checkout', gold, false);
    c.string('banner', null, 'x');
    c.json('theme', null, null);
    c.json('theme', null, null);
    await c.flushUsage();
    const checkout = f.usage.filter((u) => u.key === 'new-checkout').map((u) => u.body.count);
    expect(checkout.sort()).toEqual([10_000, 10_000, 5000]);
    expect(f.usage.filter((u) => u.key === 'banner')).toHaveLength(1);
    expect(f.usage.filter((u) => u.key === 'theme')).toHaveLength(0);
    expect(c.usageStats).toMatchObject({ sent: 25_001, dropped: 2 });
  });

  it('is flushed on close', async () => {
    const f = await fake();
    const c = client(f, { usage: { intervalMs: 60_000 } });
    await c.ready();
    c.boolean('new-checkout', gold, false);
    c.boolean('new-checkout', gold, false);
    await c.close();
    expect(f.usage).toEqual([{ key: 'new-checkout', body: { count: 2, context: gold }, apiKey: SERVER_KEY }]);
    expect(c.status).toBe('closed');
    // still serving after close
    expect(c.boolean('new-checkout', gold, false)).toBe(true);
    await waitFor(() => f.streams.size === 0, 2000, 'stream closed');
  });

  it('failed sends are retried at the next send; refused ones are dropped', async () => {
    const f = await fake();
    const c = client(f, { usage: { intervalMs: 60_000 } });
    await c.ready();
    f.usageStatus = 503;
    c.boolean('new-checkout', gold, false);
    await c.flushUsage();
    expect(c.usageStats).toMatchObject({ sent: 0, failedRequests: 1 });
    f.usageStatus = undefined;
    c.boolean('new-checkout', gold, false);
    await c.flushUsage();
    expect(f.usage).toEqual([{ key: 'new-checkout', body: { count: 2, context: gold }, apiKey: SERVER_KEY }]);
    f.usageStatus = 404;
    c.boolean('new-checkout', gold, false);
    await c.flushUsage();
    await c.flushUsage();
    expect(c.usageStats).toMatchObject({ sent: 2, dropped: 1 });
  });

  it('a context the usage schema refuses is left out of the report, the count is kept', async () => {
    const f = await fake();
    const c = client(f, { usage: { intervalMs: 60_000 } });
    await c.ready();
    c.boolean('new-checkout', { type: 'user', identifier: 'u', name: 'n'.repeat(300) }, false);
    await c.flushUsage();
    expect(f.usage).toEqual([{ key: 'new-checkout', body: { count: 1 }, apiKey: SERVER_KEY }]);
  });

  it('usage: false sends nothing; sendContext: false leaves contexts out', async () => {
    const f = await fake();
    const off = client(f, { usage: false });
    await off.ready();
    off.boolean('new-checkout', gold, false);
    await off.close();
    expect(f.usage).toHaveLength(0);
    const noContext = client(f, { usage: { sendContext: false } });
    await noContext.ready();
    noContext.boolean('new-checkout', gold, false);
    await noContext.close();
    expect(f.usage).toEqual([{ key: 'new-checkout', body: { count: 1 }, apiKey: SERVER_KEY }]);
  });
});

describe('close', () => {
  it('aborts the stream and stops every request', async () => {
    const f = await fake();
    const c = client(f);
    await c.ready();
    await waitFor(() => f.streams.size === 1);
    await c.close();
    await waitFor(() => f.streams.size === 0, 2000, 'stream closed');
    const n = f.requests.length;
    f.publish(withCheckoutBase(true));
    await sleep(200);
    expect(f.requests.length).toBe(n);
    expect(await c.refresh()).toBe(false);
    expect(await c.ready()).toBe(false);
  });
});
