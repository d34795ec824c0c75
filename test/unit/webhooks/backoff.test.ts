import { describe, expect, it } from 'vitest';
import { maxRetryDelayMs, retryDelayMs } from '../../../src/features/webhooks/backoff.js';

describe('webhook retry delay', () => {
  const base = 5_000;
  const lowest = () => 0;
  const highest = () => 1 - Number.EPSILON;

  it('doubles with each failed attempt, from the base', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, base, highest))).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, base, lowest))).toEqual([2_500, 5_000, 10_000, 20_000, 40_000]);
  });

  it('spreads each wait over the upper half of its ceiling', () => {
    for (const attempts of [1, 3, 7]) {
      const ceiling = base * 2 ** (attempts - 1);
      const samples = Array.from({ length: 2_000 }, () => retryDelayMs(attempts, base));
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(ceiling / 2);
      expect(Math.max(...samples)).toBeLessThanOrEqual(ceiling);
      // Jitter: the waits differ, and cover both quarters of the range.
      expect(new Set(samples).size).toBeGreaterThan(100);
      expect(samples.some((s) => s < ceiling * 0.75)).toBe(true);
      expect(samples.some((s) => s > ceiling * 0.75)).toBe(true);
    }
    expect(retryDelayMs(2, base, () => 0.5)).toBe(7_500);
  });

  it('never waits more than an hour, however many attempts failed', () => {
    expect(maxRetryDelayMs).toBe(3_600_000);
    // 5 s x 2^10 is past the hour: the ceiling is the hour itself.
    expect(retryDelayMs(11, base, highest)).toBe(3_600_000);
    expect(retryDelayMs(11, base, lowest)).toBe(1_800_000);
    for (const attempts of [12, 30, 1_000, 1_000_000]) {
      expect(retryDelayMs(attempts, base, highest)).toBe(3_600_000);
      expect(retryDelayMs(attempts, base, lowest)).toBe(1_800_000);
    }
    // Doubling stops after 20 attempts, so the product stays a plain number whatever the count.
    expect(retryDelayMs(1_000_000, 1, highest)).toBe(2 ** 20);
  });
});
