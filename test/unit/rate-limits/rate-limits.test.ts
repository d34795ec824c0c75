import type Koa from 'koa';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/features/rate-limits/limiter.js';
import { RedisCountExchange, type ExchangeClient } from '../../../src/features/rate-limits/redis-exchange.js';
import { RedisHealth } from '../../../src/features/rate-limits/redis-health.js';
import { WindowCounts } from '../../../src/features/rate-limits/window-counts.js';
import { managementRateLimit, publicRateLimit } from '../../../src/features/rate-limits/stages.js';
import { headersOf, statusOf } from '../../../src/http/error-middleware.js';
import { RateLimitedError } from '../../../src/http/errors.js';
import type { OperationSpec } from '../../../src/http/openapi/operations.js';

const t0 = Date.parse('2026-05-01T10:00:00.000Z');

describe('RateLimiter (fixed one-minute windows)', () => {
  it('allows the limit per window, then refuses until the window ends', () => {
    const limiter = new RateLimiter(new WindowCounts());
    const now = t0 + 15_000;
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(limiter.take('a', 3, now));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3]).toMatchObject({ limit: 3, resetAt: (t0 + 60_000) / 1000, retryAfter: 45 });
    expect(limiter.take('a', 3, t0 + 60_000).remaining).toBe(2);
    expect(limiter.take('b', 3, now).remaining).toBe(2);
  });

  it('decides synchronously: take returns the decision, not a promise', () => {
    const decision = new RateLimiter(new WindowCounts()).take('a', 1, t0);
    expect(decision).not.toBeInstanceOf(Promise);
    expect(decision.allowed).toBe(true);
  });

  it('never tells a client to retry in under a second', () => {
    const limiter = new RateLimiter(new WindowCounts());
    expect(limiter.take('a', 0, t0 + 59_999).retryAfter).toBe(1);
  });

  it('forgets ended windows when swept', () => {
    const counts = new WindowCounts();
    counts.hit('x', t0 + 1000);
    counts.hit('y', t0 + 5000);
    counts.sweep(t0 + 1000);
    expect(counts.size).toBe(1);
  });
});

describe('WindowCounts', () => {
  it('adds the shared total to the requests not reported yet, and sends each request once', () => {
    const counts = new WindowCounts();
    expect(counts.hit('k', t0 + 60_000)).toBe(1);
    expect(counts.hit('k', t0 + 60_000)).toBe(2);
    const batch = counts.takeBatch(t0);
    expect(batch).toEqual([{ key: 'k', delta: 2, ttlMs: 60_000 }]);
    // Counted while the exchange is in flight.
    expect(counts.hit('k', t0 + 60_000)).toBe(3);
    // Redis: 2 from here and 5 from other instances.
    counts.settle(batch, [7]);
    expect(counts.hit('k', t0 + 60_000)).toBe(9);
    expect(counts.takeBatch(t0)).toEqual([{ key: 'k', delta: 2, ttlMs: 60_000 }]);
  });

  it('keeps the requests of a failed exchange for the next one', () => {
    const counts = new WindowCounts();
    counts.hit('k', t0 + 60_000);
    const batch = counts.takeBatch(t0);
    counts.hit('k', t0 + 60_000);
    counts.settle(batch);
    expect(counts.takeBatch(t0)).toEqual([{ key: 'k', delta: 2, ttlMs: 60_000 }]);
  });

  it('leaves ended windows out of an exchange', () => {
    const counts = new WindowCounts();
    counts.hit('old', t0);
    counts.hit('new', t0 + 1000);
    expect(counts.takeBatch(t0).map((entry) => entry.key)).toEqual(['new']);
  });
});

describe('RedisCountExchange', () => {
  interface Deferred {
    resolve(value: unknown[]): void;
    reject(error: unknown): void;
  }
  /** A client whose MULTI answers when the test says so (a frozen Redis answers late or never). */
  function fakeClient() {
    const pending: Deferred[] = [];
    const sent: Array<Array<[string, string, number]>> = [];
    let pings = 0;
    const client: ExchangeClient = {
      isReady: true,
      isOpen: true,
      connect: async () => undefined,
      close: async () => undefined,
      destroy: () => undefined,
      ping: async () => {
        pings += 1;
        return 'PONG';
      },
      on: () => client,
      multi: () => {
        const commands: Array<[string, string, number]> = [];
        const multi = {
          incrBy: (key: string, n: number) => (commands.push(['incrBy', key, n]), multi),
          pExpire: (key: string, ms: number) => (commands.push(['pExpire', key, ms]), multi),
          exec: () => {
            sent.push(commands);
            return new Promise<unknown[]>((resolve, reject) => pending.push({ resolve, reject }));
          },
        };
        return multi;
      },
    };
    return { client, pending, sent, pings: () => pings };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  const clock = { now: () => new Date(t0) };

  function setUp() {
    const fake = fakeClient();
    const counts = new WindowCounts();
    const logs: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line).msg) });
    const health = new RedisHealth(logger);
    const exchange = new RedisCountExchange(fake.client, counts, health, clock, { prefix: 'p:', intervalMs: 1000, timeoutMs: 20 });
    return { fake, counts, health, exchange, logs, limiter: new RateLimiter(counts) };
  }

  it('sends new requests with INCRBY and an expiry after the window, and learns the shared total', async () => {
    const { fake, counts, health, exchange, limiter } = setUp();
    limiter.take('ip', 10, t0);
    exchange.tick();
    expect(fake.sent[0]).toEqual([
      ['incrBy', `p:ip:${t0}`, 1],
      ['pExpire', `p:ip:${t0}`, 61_000],
    ]);
    fake.pending[0]!.resolve([4, 1]);
    await settle();
    expect(health.state).toBe('up');
    expect(limiter.take('ip', 10, t0).remaining).toBe(5);
    expect(counts.size).toBe(1);
  });

  it('pings when no window is open, so health is known without traffic', async () => {
    const { fake, health, exchange } = setUp();
    exchange.tick();
    await settle();
    expect(fake.pings()).toBe(1);
    expect(health.state).toBe('up');
  });

  it('while Redis does not answer: decides at once on local counts, reports down once, never sends twice', async () => {
    const { fake, health, exchange, limiter, logs } = setUp();
    exchange.tick();
    await settle();
    expect(health.state).toBe('up');
    limiter.take('ip', 3, t0);
    exchange.tick();
    expect(fake.sent).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    exchange.tick();
    exchange.tick();
    await settle();
    expect(health.state).toBe('down');
    expect(fake.sent).toHaveLength(1);
    expect([limiter.take('ip', 3, t0).allowed, limiter.take('ip', 3, t0).allowed, limiter.take('ip', 3, t0).allowed]).toEqual([
      true,
      true,
      false,
    ]);
    expect(logs.filter((msg) => /Redis unavailable/.test(msg))).toHaveLength(1);
    // Redis answers at last: the requests counted meanwhile go in the next exchange.
    fake.pending[0]!.resolve([1, 1]);
    await settle();
    expect(health.state).toBe('up');
    exchange.tick();
    expect(fake.sent[1]![0]).toEqual(['incrBy', `p:ip:${t0}`, 3]);
    expect(logs.filter((msg) => /Redis answers/.test(msg))).toHaveLength(2);
  });

  it('puts the requests of a failed exchange back and reports Redis down', async () => {
    const { fake, health, exchange, limiter } = setUp();
    limiter.take('ip', 3, t0);
    exchange.tick();
    fake.pending[0]!.reject(new Error('connection lost'));
    await settle();
    expect(health.state).toBe('down');
    exchange.tick();
    expect(fake.sent[1]![0]).toEqual(['incrBy', `p:ip:${t0}`, 1]);
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
    const stage = managementRateLimit(
      new RateLimiter(new WindowCounts()),
      { managementRateLimits: { standard: 1, elevated: 2 }, consoleReadRateLimit: 3 },
      clock,
    );
    const c = ctx('/management/v1/projects', { tokenUlid: 'mgt_1', tier: 'standard' });
    await stage(c, next);
    expect(c.headers).toEqual({
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String((t0 + 60_000) / 1000),
    });
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
    const limiter = new RateLimiter(new WindowCounts());
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
    const limiter = new RateLimiter(new WindowCounts());
    const op = { operationId: 'getEvaluatedFlag' } as OperationSpec;
    const on = publicRateLimit(limiter, { publicRateLimit: 5 }, clock);
    expect(on.forOperation?.(op)).toBe(on);
    expect(publicRateLimit(limiter, { publicRateLimit: 0 }, clock).forOperation?.(op)).toBeUndefined();
  });
});
