/**
 * MurmurHash3, x86 32-bit variant (Austin Appleby), as used for rollout bucketing.
 *
 * `murmur3(string)` hashes the UTF-8 bytes of the string. The bytes are produced on the fly from
 * the UTF-16 code units (no encoder, no allocation); a lone surrogate is encoded as U+FFFD, which
 * is what TextEncoder does. Results are unsigned 32-bit integers.
 *
 * For bucketing, the hash of `prefix + a + b + c` is computed without building the string: the
 * state after the constant prefix (the flag key) is computed once (`murmur3Prefix`) and the
 * variable parts are streamed after it (`murmur3Continue`).
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** Hash state after some input: a precomputed prefix. */
export interface Murmur3State {
  readonly h: number;
  /** Input bytes not yet mixed (little-endian, `bits` bits of them). */
  readonly pending: number;
  readonly bits: number;
  readonly length: number;
}

// Streaming scratch state. Every exported function below runs synchronously from reset to
// finish, so a module-level scratch is safe and avoids allocating a state object per hash.
let sH = 0;
let sPending = 0;
let sBits = 0;
let sLength = 0;

/** Streams the UTF-8 bytes of `input` into the scratch state. */
function feed(input: string): void {
  let h = sH;
  let pending = sPending;
  let pendingBits = sBits;
  let length = sLength;
  const n = input.length;
  let i = 0;
  while (i < n) {
    // Runs of four ASCII characters are four bytes; the number of pending bits does not change.
    if (pendingBits === 0) {
      while (i + 4 <= n) {
        const c0 = input.charCodeAt(i);
        const c1 = input.charCodeAt(i + 1);
        const c2 = input.charCodeAt(i + 2);
        const c3 = input.charCodeAt(i + 3);
        if ((c0 | c1 | c2 | c3) >= 0x80) break;
        let k = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
        k = Math.imul(k, C1);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, C2);
        h ^= k;
        h = (h << 13) | (h >>> 19);
        h = (Math.imul(h, 5) + 0xe6546b64) | 0;
        i += 4;
        length += 4;
      }
    } else {
      const carryShift = 32 - pendingBits;
      while (i + 4 <= n) {
        const c0 = input.charCodeAt(i);
        const c1 = input.charCodeAt(i + 1);
        const c2 = input.charCodeAt(i + 2);
        const c3 = input.charCodeAt(i + 3);
        if ((c0 | c1 | c2 | c3) >= 0x80) break;
        const word = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
        let k = pending | (word << pendingBits);
        pending = word >>> carryShift;
        k = Math.imul(k, C1);
        k = (k << 15) | (k >>> 17);
        k = Math.imul(k, C2);
        h ^= k;
        h = (h << 13) | (h >>> 19);
        h = (Math.imul(h, 5) + 0xe6546b64) | 0;
        i += 4;
        length += 4;
      }
    }
    if (i >= n) break;

    // One character (1 to 4 UTF-8 bytes).
    const packed = encodeOne(input, i, input.charCodeAt(i));
    const bits = encodedBits;
    i += encodedUnits;
    length += bits >>> 3;
    const total = pendingBits + bits;
    if (total < 32) {
      pending |= packed << pendingBits;
      pendingBits = total;
    } else {
      let k = pending | (packed << pendingBits);
      k = Math.imul(k, C1);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, C2);
      h ^= k;
      h = (h << 13) | (h >>> 19);
      h = (Math.imul(h, 5) + 0xe6546b64) | 0;
      const rest = total - 32;
      pending = rest === 0 ? 0 : packed >>> (bits - rest);
      pendingBits = rest;
    }
  }
  sH = h;
  sPending = pending;
  sBits = pendingBits;
  sLength = length;
}

// Second and third results of encodeOne (number of bits produced, UTF-16 units consumed).
let encodedBits = 0;
let encodedUnits = 0;

/** UTF-8 bytes of the character at `i` (code unit `c`), packed little-endian. */
function encodeOne(input: string, i: number, c: number): number {
  encodedUnits = 1;
  if (c < 0x80) {
    encodedBits = 8;
    return c;
  }
  if (c < 0x800) {
    encodedBits = 16;
    return 0xc0 | (c >>> 6) | ((0x80 | (c & 0x3f)) << 8);
  }
  if (c >= 0xd800 && c <= 0xdfff) {
    const next = i + 1 < input.length ? input.charCodeAt(i + 1) : 0;
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      encodedUnits = 2;
      encodedBits = 32;
      return (
        0xf0 | (cp >>> 18) | ((0x80 | ((cp >>> 12) & 0x3f)) << 8) | ((0x80 | ((cp >>> 6) & 0x3f)) << 16) | ((0x80 | (cp & 0x3f)) << 24)
      );
    }
    // lone surrogate: U+FFFD, like TextEncoder
    encodedBits = 24;
    return 0xef | (0xbf << 8) | (0xbd << 16);
  }
  encodedBits = 24;
  return 0xe0 | (c >>> 12) | ((0x80 | ((c >>> 6) & 0x3f)) << 8) | ((0x80 | (c & 0x3f)) << 16);
}

function finish(): number {
  let h = sH;
  if (sBits > 0) {
    let k = Math.imul(sPending, C1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, C2);
    h ^= k;
  }
  h ^= sLength;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Continues hashing from `state` (see murmur3Prefix). */
function resume(state: Murmur3State): void {
  sH = state.h;
  sPending = state.pending;
  sBits = state.bits;
  sLength = state.length;
}

function reset(seed: number): void {
  sH = seed | 0;
  sPending = 0;
  sBits = 0;
  sLength = 0;
}

/** MurmurHash3 x86 32 of the UTF-8 encoding of `input`. */
export function murmur3(input: string, seed = 0): number {
  reset(seed);
  feed(input);
  return finish();
}

/** The hash state after the UTF-8 bytes of `prefix`, to continue with murmur3Continue. */
export function murmur3Prefix(prefix: string, seed = 0): Murmur3State {
  reset(seed);
  feed(prefix);
  return { h: sH, pending: sPending, bits: sBits, length: sLength };
}

/**
 * murmur3(prefix + a + b + c) where `state` = murmur3Prefix(prefix, seed); no string is built.
 * Each part is UTF-8 encoded on its own, so this differs from hashing the concatenation only when
 * a surrogate pair is split between two parts (never the case for bucketing keys, whose parts
 * are separated by "/").
 */
export function murmur3Continue(state: Murmur3State, a: string, b: string, c: string): number {
  resume(state);
  feed(a);
  feed(b);
  feed(c);
  return finish();
}

/** A hash state that can be overwritten in place (murmur3ExtendInto), e.g. a cache entry. */
export interface Murmur3Scratch {
  h: number;
  pending: number;
  bits: number;
  length: number;
}

/** Writes into `into` the state after `state`'s input followed by `a` and `b`. */
export function murmur3ExtendInto(state: Murmur3State, a: string, b: string, into: Murmur3Scratch): void {
  resume(state);
  feed(a);
  feed(b);
  into.h = sH;
  into.pending = sPending;
  into.bits = sBits;
  into.length = sLength;
}

/** murmur3(prefix + last) where `state` is the state after `prefix` (same rule as murmur3Continue). */
export function murmur3Last(state: Murmur3State, last: string): number {
  resume(state);
  feed(last);
  return finish();
}

/** MurmurHash3 x86 32 of raw bytes. */
export function murmur3Bytes(bytes: Uint8Array, seed = 0): number {
  let h = seed | 0;
  const n = bytes.length;
  const blocks = n & ~3;
  let i = 0;
  for (; i < blocks; i += 4) {
    let k = (bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16) | ((bytes[i + 3] as number) << 24);
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, C2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = n & 3;
  if (tail > 0) {
    let k = 0;
    if (tail === 3) k ^= (bytes[i + 2] as number) << 16;
    if (tail >= 2) k ^= (bytes[i + 1] as number) << 8;
    k ^= bytes[i] as number;
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, C2);
    h ^= k;
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
