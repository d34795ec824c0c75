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

/** Sketches found by environment, flag, day and variant through nested maps: no key string is built per exposure. */
type SketchIndex = Map<string, Map<string, Map<string, Map<string, ExposureSketch>>>>;

function find(index: SketchIndex, environmentUlid: string, flagUlid: string, day: string, variant: string): ExposureSketch | undefined {
  return index.get(environmentUlid)?.get(flagUlid)?.get(day)?.get(variant);
}

function place(index: SketchIndex, sketch: ExposureSketch): void {
  let flags = index.get(sketch.environmentUlid);
  if (flags === undefined) index.set(sketch.environmentUlid, (flags = new Map()));
  let days = flags.get(sketch.flagUlid);
  if (days === undefined) flags.set(sketch.flagUlid, (days = new Map()));
  let variants = days.get(sketch.day);
  if (variants === undefined) days.set(sketch.day, (variants = new Map()));
  variants.set(sketch.variant, sketch);
}

export class ExposureBuffer {
  private index: SketchIndex = new Map();
  private sketches: ExposureSketch[] = [];
  /** Exposures refused because the buffer was full, since start (for /metrics). */
  droppedTotal = 0;

  constructor(readonly maxSketches = 10_000) {}

  get size(): number {
    return this.sketches.length;
  }

  /** One context received `variant` of the flag's split at `at` (ISO time). */
  record(environmentUlid: string, flagUlid: string, variant: string, hash: number, at: string): void {
    const day = at.slice(0, 10);
    let sketch = find(this.index, environmentUlid, flagUlid, day, variant);
    if (sketch === undefined) {
      if (this.sketches.length >= this.maxSketches) {
        this.droppedTotal++;
        return;
      }
      // `variant` is the snapshot's own string: held, not copied.
      sketch = { environmentUlid, flagUlid, day, variant, registers: newSketch() };
      place(this.index, sketch);
      this.sketches.push(sketch);
    }
    addToSketch(sketch.registers, hash);
  }

  /** Takes everything recorded so far and empties the buffer. */
  drain(): ExposureSketch[] {
    const out = this.sketches;
    this.index = new Map();
    this.sketches = [];
    return out;
  }

  /** Puts back sketches that could not be written (merged with any recorded meanwhile). */
  restore(sketches: readonly ExposureSketch[]): void {
    for (const s of sketches) {
      const held = find(this.index, s.environmentUlid, s.flagUlid, s.day, s.variant);
      if (held) mergeSketch(held.registers, s.registers);
      else if (this.sketches.length < this.maxSketches) {
        place(this.index, s);
        this.sketches.push(s);
      }
    }
  }
}
