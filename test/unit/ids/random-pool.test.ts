import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { pooledRandom } from '../../../src/random-pool.js';

describe('pooled randomness for ids', () => {
  it('gives bytes / 256 in [0, 1) across pool refills, spread over the range', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 10_000; i++) {
      const r = pooledRandom();
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThan(1);
      expect(Number.isInteger(r * 256)).toBe(true);
      seen.add(r);
    }
    expect(seen.size).toBeGreaterThan(200);
  });

  it('keeps new ids unique and in creation order within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newId('flag', 1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
