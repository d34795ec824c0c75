import { randomFillSync } from 'node:crypto';

// ulid's own PRNG makes one crypto call per character (16 per id); on paths that issue ids per
// request that was ~10 % of the request's CPU time (bench/README.md). Random bytes come from a
// pool refilled 4 KiB at a time instead.
const pool = new Uint8Array(4096);
let poolIndex = pool.length;

/** A cryptographically random number in [0, 1) with 8 bits of precision (ulid's PRNG contract). */
export function pooledRandom(): number {
  if (poolIndex >= pool.length) {
    randomFillSync(pool);
    poolIndex = 0;
  }
  return (pool[poolIndex++] as number) / 256;
}
