import type { WindowCounts } from './window-counts.js';

export const windowMs = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the current window ends. */
  resetAt: number;
  /** Seconds until the window ends (at least 1): the Retry-After of a refusal. */
  retryAfter: number;
}

/**
 * Fixed one-minute windows aligned to the clock (12:00:00-12:00:59.999 ...), so every instance
 * sharing counts agrees on the window without coordination. `limit` requests per window are
 * allowed; later ones are refused until the window ends. `take` is synchronous: it reads and
 * counts in memory only (window-counts.ts), so no request ever waits on Redis.
 */
export class RateLimiter {
  constructor(private readonly counts: WindowCounts) {}

  take(identity: string, limit: number, nowMs: number): RateDecision {
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const windowEnd = windowStart + windowMs;
    const count = this.counts.hit(`${identity}:${windowStart}`, windowEnd);
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: Math.ceil(windowEnd / 1000),
      retryAfter: Math.max(1, Math.ceil((windowEnd - nowMs) / 1000)),
    };
  }
}
