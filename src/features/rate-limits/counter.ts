import type { Logger } from 'pino';
import { createClient } from 'redis';

/**
 * Fixed-window request counters. `hit` adds one request to `key`'s window (the key already names
 * the window) and returns the window's count including this request.
 */
export interface RateCounter {
  hit(key: string, windowMs: number, nowMs: number): Promise<number>;
  /** Forgets windows that ended before `nowMs` (in-memory counters only). */
  sweep(nowMs: number): void;
  close(): Promise<void>;
}

/** Counters of this instance only: the default, and the fallback while Redis is unreachable. */
export class MemoryRateCounter implements RateCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  async hit(key: string, windowMs: number, nowMs: number): Promise<number> {
    const window = this.windows.get(key);
    if (window && window.endsAt > nowMs) {
      window.count += 1;
      return window.count;
    }
    this.windows.set(key, { count: 1, endsAt: nowMs + windowMs });
    return 1;
  }

  sweep(nowMs: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= nowMs) this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

/** The part of node-redis's client the shared counter uses. */
export interface RedisCounterClient {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  multi(): {
    incr(key: string): {
      pExpire(key: string, ms: number): { exec(): Promise<unknown[]> };
    };
  };
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/**
 * Counters shared by every instance through Redis (REDIS_URL): `INCR` plus `PEXPIRE` in one
 * MULTI, so two instances enforce one limit. While Redis is unreachable each instance falls back
 * to its own memory counters (the limit then applies per instance) and logs the outage, rather
 * than refusing or stalling requests.
 */
export class RedisRateCounter implements RateCounter {
  private readonly fallback = new MemoryRateCounter();
  private readonly connecting: Promise<unknown>;
  private lastWarning = 0;

  constructor(
    private readonly client: RedisCounterClient,
    private readonly logger: Logger,
    private readonly prefix = 'vexil:ratelimit:',
  ) {
    client.on('error', (error) => this.warn(error));
    this.connecting = client.connect().catch((error: unknown) => this.warn(error));
  }

  async hit(key: string, windowMs: number, nowMs: number): Promise<number> {
    if (!this.client.isReady) {
      // Right after start the connection may still be opening: wait for it briefly.
      await Promise.race([this.connecting, new Promise((resolve) => setTimeout(resolve, 250).unref())]);
    }
    if (this.client.isReady) {
      try {
        const redisKey = this.prefix + key;
        // The window is part of the key; the expiry only cleans up (a little after the window ends).
        const replies = await this.client.multi().incr(redisKey).pExpire(redisKey, windowMs + 1000).exec();
        const count = Number(replies[0]);
        if (Number.isInteger(count) && count > 0) return count;
        throw new Error(`unexpected INCR reply ${String(replies[0])}`);
      } catch (error) {
        this.warn(error);
      }
    }
    return this.fallback.hit(key, windowMs, nowMs);
  }

  sweep(nowMs: number): void {
    this.fallback.sweep(nowMs);
  }

  /** Whether counts are shared through Redis now (false: this instance counts alone). */
  get connected(): boolean {
    return this.client.isReady;
  }

  async close(): Promise<void> {
    if (this.client.isReady) await this.client.close().catch((error: unknown) => this.warn(error));
    else if (this.client.isOpen) this.client.destroy();
    await this.fallback.close();
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: error }, 'Redis unavailable for rate limits: counting in this instance only');
  }
}

/** The node-redis client for REDIS_URL: fails fast while disconnected instead of queueing. */
export function createRedisClient(url: string): RedisCounterClient {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5000) },
  }) as unknown as RedisCounterClient;
}
