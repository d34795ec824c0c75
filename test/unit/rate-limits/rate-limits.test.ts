import type Koa from 'koa';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MemoryRateCounter, RedisRateCounter, type RedisCounterClient } from '../../../src/features/rate-limits/counter.js';
import { RateLimiter } from '../../../src/features/rate-limits/limiter.js';
import { managementRateLimit, publicRateLimit } from '../../../src/features/rate-limits/stages.js';
import { headersOf, statusOf } from '../../../src/http/error-middleware.js';
import { RateLimitedError } from '../../../src/http/errors.js';
import type { OperationSpec } from '../../../src/http/openapi/operations.js';

const logger = pino({ level: 'silent' });
const t0 = Date.parse('2026-05-01T10:00:00.000Z');

describe('RateLimiter (fixed one-minute windows)', () => {
  it('allows the limit per window, then refuses until the window ends', async () => {
    const limiter = new RateLimiter(new MemoryRateCounter());
    const now = t0 + 15_000;
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.take('a', 3, now));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3]).toMatchObject({ limit: 3, resetAt: (t0 + 60_000) / 1000, retryAfter: 45 });
    expect((await limiter.take('a', 3, t0 + 60_000)).remaining).toBe(2);
    expect((await limiter.take('b', 3, now)).remaining).toBe(2);
  });

  it('never tells a client to retry in under a second', async () => {
    const limiter = new RateLimiter(new MemoryRateCounter());
    const d = await limiter.take('a', 0, t0 + 59_999);
    expect(d.retryAfter).toBe(1);
  });

  it('forgets ended windows when swept', async () => {
    const counter = new MemoryRateCounter();
    await counter.hit('x', 1000, t0);
    await counter.hit('y', 5000, t0);
    counter.sweep(t0 + 1000);
    expect(counter.size).toBe(1);
  });
});

describe('RedisRateCounter', () => {
  function fakeClient(options: { ready: boolean; fail?: boolean }) {
    const counts = new Map<string, number>();
    const expiries: Array<[string, number]> = [];
    const client: RedisCounterClient = {
      isReady: options.ready,
      isOpen: options.ready,
      connect: async () => undefined,
      close: async () => undefined,
      destroy: () => undefined,
      on: () => client,
      multi: () => ({
        incr: (key: string) => ({
          pExpire: (k: string, ms: number) => ({
            exec: async () => {
              if (options.fail) throw new Error('connection lost');
              const n = (counts.get(key) ?? 0) + 1;
              counts.set(key, n);
              expiries.push([k, ms]);
              return [n, 1];
            },
          }),
        }),
      }),
    };
    return { client, counts, expiries };
  }

  it('counts with INCR and expires the key after its window', async () => {
    const fake = fakeClient({ ready: true });
    const counter = new RedisRateCounter(fake.client, logger, 'p:');
    expect(await counter.hit('k', 30_000, t0)).toBe(1);
    expect(await counter.hit('k', 30_000, t0)).toBe(2);
    expect(fake.counts.get('p:k')).toBe(2);
    expect(fake.expiries[0]).toEqual(['p:k', 31_000]);
  });

  it('falls back to local counting when Redis fails or is not connected', async () => {
    const failing = new RedisRateCounter(fakeClient({ ready: true, fail: true }).client, logger);
    expect([await failing.hit('k', 1000, t0), await failing.hit('k', 1000, t0)]).toEqual([1, 2]);
    const offline = new RedisRateCounter(fakeClient({ ready: false }).client, logger);
    expect(await offline.hit('k', 1000, t0)).toBe(1);
  });
});

describe('rate-limit stages', () => {
  function ctx(path: string, principal?: { tokenUlid: string; tier: string }) {
    const headers: Record<string, string> = {};
    return {
      path,
      ip: '192.0.2.1',
      headers,
      state: { managementPrincipal: principal },
      set(name: string, value: string) {
        headers[name] = value;
      },
    } as unknown as Koa.Context & { headers: Record<string, string> };
  }
  const clock = { now: () => new Date(t0 + 1000) };
  const next = async () => {};

  it('management: limit by tier, headers on every response, 429 over the limit', async () => {
    const stage = managementRateLimit(new RateLimiter(new MemoryRateCounter()), { managementRateLimits: { standard: 1, elevated: 2 } }, clock);
    const c = ctx('/management/v1/projects', { tokenUlid: 'mgt_1', tier: 'standard' });
    await stage(c, next);
    expect(c.headers).toEqual({ 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String((t0 + 60_000) / 1000) });
    const refused = ctx('/management/v1/projects', { tokenUlid: 'mgt_1', tier: 'standard' });
    const error = await stage(refused, next).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(headersOf(error as RateLimitedError)).toEqual({ 'Retry-After': '59' });
    expect(refused.headers['X-RateLimit-Remaining']).toBe('0');

    const unlimited = ctx('/management/v1/projects', { tokenUlid: 'mgt_2', tier: 'unlimited' });
    for (let i = 0; i < 5; i++) await stage(unlimited, next);
    expect(unlimited.headers).toEqual({});
    const anonymous = ctx('/management/v1/projects');
    await stage(anonymous, next);
    expect(anonymous.headers).toEqual({});
  });

  it('public: per IP, off at 0', async () => {
    const limiter = new RateLimiter(new MemoryRateCounter());
    const stage = publicRateLimit(limiter, { publicRateLimit: 1 }, clock);
    const c = ctx('/v1/flags');
    await stage(c, next);
    expect(c.headers).toEqual({ 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0' });
    await expect(stage(ctx('/v1/flags'), next)).rejects.toBeInstanceOf(RateLimitedError);
    const ofrep = await stage(ctx('/ofrep/v1/evaluate/flags'), next).catch((e: unknown) => e);
    expect(ofrep).toBeInstanceOf(RateLimitedError);
    expect(ofrep).toMatchObject({ message: 'Rate limit exceeded.' });
    expect([statusOf(ofrep as RateLimitedError), headersOf(ofrep as RateLimitedError)]).toEqual([429, { 'Retry-After': '59' }]);

    const off = publicRateLimit(limiter, { publicRateLimit: 0 }, clock);
    const free = ctx('/v1/flags');
    for (let i = 0; i < 3; i++) await off(free, next);
    expect(free.headers).toEqual({});
  });

  it('public: routes leave the stage out when the limit is off', () => {
    const limiter = new RateLimiter(new MemoryRateCounter());
    const op = { operationId: 'getEvaluatedFlag' } as OperationSpec;
    const on = publicRateLimit(limiter, { publicRateLimit: 5 }, clock);
    expect(on.forOperation?.(op)).toBe(on);
    expect(publicRateLimit(limiter, { publicRateLimit: 0 }, clock).forOperation?.(op)).toBeUndefined();
  });
});
