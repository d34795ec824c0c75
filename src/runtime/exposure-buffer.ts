/**
 * Exposure counts of splits, in memory: per environment, flag, UTC day and served variant, a
 * distinct-count sketch (distinct-sketch.ts) of the contexts that received the variant. The
 * serving path only hashes the context and sets a register; the exposure flusher drains the
 * buffer in the background and merges the sketches into the stored ones. Bounded: once it holds
 * `maxSketches` sketches, exposures for new (environment, flag, day, variant) are dropped.
 */
import { murmur3 } from '../engine/index.js';
import { addToSketch, mergeSketch, newSketch } from './distinct-sketch.js';

export interface ExposureSketch {
  environmentUlid: string;
  flagUlid: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  variant: string;
  registers: Uint8Array;
}

/** Seed of the context hash, distinct from bucketing's (seed 0), so the two never correlate. */
const CONTEXT_HASH_SEED = 0x5eed;

/** The 32-bit hash that identifies a context (type and identifier) in a sketch. */
export function contextHash(type: string, identifier: string): number {
  return murmur3(`${type}\u0000${identifier}`, CONTEXT_HASH_SEED);
}

const SEP = '\u0000';

export class ExposureBuffer {
  private sketches = new Map<string, ExposureSketch>();
  /** Exposures refused because the buffer was full, since start (for /metrics). */
  droppedTotal = 0;

  constructor(readonly maxSketches = 10_000) {}

  get size(): number {
    return this.sketches.size;
  }

  /** One context received `variant` of the flag's split at `at` (ISO time). */
  record(environmentUlid: string, flagUlid: string, variant: string, hash: number, at: string): void {
    const day = at.slice(0, 10);
    const key = environmentUlid + SEP + flagUlid + SEP + day + SEP + variant;
    let sketch = this.sketches.get(key);
    if (sketch === undefined) {
      if (this.sketches.size >= this.maxSketches) {
        this.droppedTotal++;
        return;
      }
      sketch = { environmentUlid, flagUlid, day, variant, registers: newSketch() };
      this.sketches.set(key, sketch);
    }
    addToSketch(sketch.registers, hash);
  }

  /** Takes everything recorded so far and empties the buffer. */
  drain(): ExposureSketch[] {
    const out = [...this.sketches.values()];
    this.sketches = new Map();
    return out;
  }

  /** Puts back sketches that could not be written (merged with any recorded meanwhile). */
  restore(sketches: readonly ExposureSketch[]): void {
    for (const s of sketches) {
      const key = s.environmentUlid + SEP + s.flagUlid + SEP + s.day + SEP + s.variant;
      const held = this.sketches.get(key);
      if (held) mergeSketch(held.registers, s.registers);
      else if (this.sketches.size < this.maxSketches) this.sketches.set(key, s);
    }
  }
}
