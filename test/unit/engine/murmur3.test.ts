import { describe, expect, it } from 'vitest';
import { BUCKET_COUNT, bucketOf, inRollout, murmur3, murmur3Bytes, murmur3Continue, murmur3Prefix } from '../../../src/engine/index.js';

// Published reference values (Appleby's SMHasher-compatible MurmurHash3_x86_32), as used by the
// test suites of many independent implementations.
const STRING_VECTORS: [string, number, number][] = [
  ['', 0, 0x00000000],
  ['', 1, 0x514e28b7],
  ['', 0xffffffff, 0x81f16f39],
  ['', 1234, 0x0f2cc00b],
  ['test', 0, 0xba6bd213],
  ['test', 0x9747b28c, 0x704b81dc],
  ['Hello, world!', 0, 0xc0363e43],
  ['Hello, world!', 1234, 0xfaf6cdb3],
  ['Hello, world!', 4321, 0xbf505788],
  ['Hello, world!', 0x9747b28c, 0x24884cba],
  ['xxxxxxxxxxxxxxxxxxxxxxxxxxxx', 1234, 0x8905ac28],
  ['The quick brown fox jumps over the lazy dog', 0, 0x2e4ff723],
  ['The quick brown fox jumps over the lazy dog', 0x9747b28c, 0x2fa826cd],
  ['hello', 0, 0x248bfa47],
  ['hello', 1, 0xbb4abcad],
  ['hello, world', 0, 0x149bbb7f],
  ['kinkajou', 0, 0xb6d99cf8],
  ['a', 0x9747b28c, 0x7fa09ea6],
  ['aa', 0x9747b28c, 0x5d211726],
  ['aaa', 0x9747b28c, 0x283e0130],
  ['aaaa', 0x9747b28c, 0x5a97808a],
  ['t', 0, 0xca87df4d],
  ['te', 0, 0xedb8ee1b],
  ['tes', 0, 0x0bb90e5a],
  ['testy', 0, 0x44af8342],
];

// UTF-8 inputs: 2-, 3- and 4-byte sequences (surrogate pairs in UTF-16).
const UTF8_VECTORS: [string, number, number][] = [
  ['special characters açb↓c', 0, 0xbe83b140],
  ['Rýchla hnedá líška preskočila lenivého psa', 0, 0x678b9be9],
  ['Rýchla hnedá líška preskočila lenivého psa', 0x9747b28c, 0x8d3382a7],
  ['Быстрая коричневая лиса перепрыгивает через ленивую собаку', 0, 0xa94f1f75],
  ['Быстрая коричневая лиса перепрыгивает через ленивую собаку', 0x9747b28c, 0x4152021b],
  ['敏捷的棕色狐狸跳过了懒狗', 0, 0x6687dfe4],
  ['敏捷的棕色狐狸跳过了懒狗', 0x9747b28c, 0xc7df48f1],
  ['我的气垫船装满了鳗鱼。', 0, 4193185573],
  ['My 🚀 is full of 🦎.', 0, 1818098979],
];

const BYTE_VECTORS: [number[], number, number][] = [
  [[0xff, 0xff, 0xff, 0xff], 0, 0x76293b50],
  [[0x21, 0x43, 0x65, 0x87], 0, 0xf55b516b],
  [[0x21, 0x43, 0x65, 0x87], 0x5082edee, 0x2362f9de],
  [[0x21, 0x43, 0x65], 0, 0x7e4a8634],
  [[0x21, 0x43], 0, 0xa0f7b07a],
  [[0x21], 0, 0x72661cf4],
  [[0, 0, 0, 0], 0, 0x2362f9de],
  [[0, 0, 0], 0, 0x85f0b427],
  [[0, 0], 0, 0x30f4c306],
  [[0], 0, 0x514e28b7],
];

describe('murmur3', () => {
  it.each(STRING_VECTORS)('murmur3(%j, %i) matches the reference value', (s, seed, want) => {
    expect(murmur3(s, seed)).toBe(want);
    expect(murmur3Bytes(new TextEncoder().encode(s), seed)).toBe(want);
  });

  it.each(UTF8_VECTORS)('hashes the UTF-8 bytes of %j (seed %i)', (s, seed, want) => {
    expect(murmur3(s, seed)).toBe(want);
  });

  it.each(BYTE_VECTORS)('murmur3Bytes(%j, %i) matches the reference value', (bytes, seed, want) => {
    expect(murmur3Bytes(new Uint8Array(bytes), seed)).toBe(want);
  });

  it('defaults the seed to 0 and returns unsigned integers', () => {
    expect(murmur3('test')).toBe(0xba6bd213);
    for (const s of ['', 'a', 'test', 'Hello, world!']) {
      const h = murmur3(s);
      expect(Number.isInteger(h) && h >= 0 && h <= 0xffffffff).toBe(true);
    }
  });

  it('encodes a lone surrogate as U+FFFD, like TextEncoder', () => {
    expect(murmur3('a\ud800b')).toBe(murmur3('a\ufffdb'));
    expect(murmur3('\udc00')).toBe(murmur3('\ufffd'));
    expect(murmur3('x\ud83d')).toBe(murmur3Bytes(new TextEncoder().encode('x\ud83d')));
  });

  it('agrees with TextEncoder + byte hashing on pseudo-random strings', () => {
    let state = 12345;
    const rand = (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state % n;
    };
    const encoder = new TextEncoder();
    for (let t = 0; t < 5000; t++) {
      let s = '';
      const len = rand(24);
      for (let i = 0; i < len; i++) {
        const kind = rand(5);
        const code =
          kind === 0
            ? rand(0x80)
            : kind === 1
              ? 0x80 + rand(0x780)
              : kind === 2
                ? 0x800 + rand(0xf800)
                : kind === 3
                  ? 0xd800 + rand(0x800)
                  : rand(0x80);
        s += String.fromCharCode(code);
        if (kind === 3 && code < 0xdc00 && rand(2) === 0) s += String.fromCharCode(0xdc00 + rand(0x400));
      }
      const seed = rand(0x7fffffff) * 2;
      expect(murmur3(s, seed)).toBe(murmur3Bytes(encoder.encode(s), seed));
    }
  });
});

describe('murmur3Prefix / murmur3Continue', () => {
  it('equals murmur3 of the concatenation (each part encoded on its own)', () => {
    const parts = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'abcde',
      'new-checkout/',
      'ü',
      '€uro',
      '🚀x',
      'x\ud800',
      '\udc00y',
      'user',
      '/',
      'user-42',
    ];
    for (const prefix of parts) {
      for (const seed of [0, 1, 0x9747b28c]) {
        const state = murmur3Prefix(prefix, seed);
        for (const a of parts) {
          for (const c of ['', 'u1', 'ünïcødé-🚀', 'abcdefghij']) {
            // a surrogate pair split across parts is two lone surrogates when streamed
            if (prefix.endsWith('\ud800') && a.startsWith('\udc00')) continue;
            expect(murmur3Continue(state, a, '/', c)).toBe(murmur3(prefix + a + '/' + c, seed));
          }
        }
      }
    }
  });

  it('does not change the prefix state', () => {
    const state = murmur3Prefix('flag/');
    const first = murmur3Continue(state, 'user', '/', 'u1');
    murmur3Continue(state, 'other', '/', 'u2');
    expect(murmur3Continue(state, 'user', '/', 'u1')).toBe(first);
  });
});

describe('bucketing', () => {
  it('buckets murmur3("flagKey/contextType/identifier") mod 10000', () => {
    expect(BUCKET_COUNT).toBe(10000);
    for (const [flag, type, id] of [
      ['new-checkout', 'user', 'user-42'],
      ['f', 'organization', 'acme'],
      ['ünï', 'user', '🚀'],
    ] as const) {
      expect(bucketOf(flag, type, id)).toBe(murmur3(`${flag}/${type}/${id}`) % 10000);
    }
  });

  it('inRollout: bucket < percentage * 100', () => {
    expect(inRollout(0, 1)).toBe(true);
    expect(inRollout(99, 1)).toBe(true);
    expect(inRollout(100, 1)).toBe(false);
    expect(inRollout(4999, 50)).toBe(true);
    expect(inRollout(5000, 50)).toBe(false);
    expect(inRollout(9999, 100)).toBe(true);
  });
});
