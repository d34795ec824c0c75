import { describe, expect, it } from 'vitest';
import { isoOf } from '../../../src/clock.js';

describe('isoOf', () => {
  it('formats like toISOString, for repeated, new and earlier milliseconds', () => {
    const times = [0, 1_700_000_000_123, 1_700_000_000_123, 1_700_000_000_124, 1_600_000_000_000, 1_700_000_000_123, -1];
    for (const ms of times) expect(isoOf(new Date(ms))).toBe(new Date(ms).toISOString());
  });
});
