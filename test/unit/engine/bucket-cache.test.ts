import { describe, expect, it } from 'vitest';
import { bucketOf, murmur3, murmur3Prefix } from '../../../src/engine/index.js';
import { contextBucket, newBucketTypeCache } from '../../../src/engine/bucket.js';
import { murmur3ExtendInto, murmur3Last } from '../../../src/engine/murmur3.js';

const FLAG_KEYS = ['new-checkout', 'f', 'ünï', 'abc', 'abcd', '🚀-rocket'];
const TYPES = ['user', 'organization', 'u', 'ünïcødé', 'device🚀', 'x\ud800'];
const IDENTIFIERS = ['user-42', 'acme', '🚀', 'a', 'abcdefghijk', 'ü-ü-ü', '\udc00y'];

describe('murmur3ExtendInto / murmur3Last', () => {
  it('equal murmur3 of prefix + a + b + last', () => {
    for (const prefix of FLAG_KEYS) {
      const state = murmur3Prefix(prefix + '/');
      const into = { h: 1, pending: 2, bits: 3, length: 4 };
      for (const a of TYPES) {
        murmur3ExtendInto(state, a, '/', into);
        for (const last of IDENTIFIERS) {
          if (a.endsWith('\ud800') || last.startsWith('\udc00')) continue; // no pair split across parts
          expect(murmur3Last(into, last)).toBe(murmur3(`${prefix}/${a}/${last}`));
        }
      }
    }
  });
});

describe('contextBucket', () => {
  it('equals bucketOf whatever the order of context types (cache hits and misses)', () => {
    for (const key of FLAG_KEYS) {
      const state = murmur3Prefix(key + '/');
      const cache = newBucketTypeCache();
      // each type twice in a row (hit after miss), then the types interleaved (miss every time)
      const sequence = [...TYPES.flatMap((t) => [t, t]), ...TYPES, ...[...TYPES].reverse()];
      for (const type of sequence) {
        for (const id of IDENTIFIERS) {
          if (type.endsWith('\ud800') && id.startsWith('\udc00')) continue;
          expect(contextBucket(state, cache, type, id)).toBe(bucketOf(key, type, id));
        }
        expect(cache.type).toBe(type);
      }
    }
  });

  it('keeps the flag key state unchanged', () => {
    const state = murmur3Prefix('flag/');
    const before = { ...state };
    contextBucket(state, newBucketTypeCache(), 'user', 'u1');
    expect(state).toEqual(before);
  });
});
