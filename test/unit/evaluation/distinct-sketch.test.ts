import { describe, expect, it } from 'vitest';
import { addToSketch, decodeSketch, encodeSketch, estimateDistinct, mergeSketch, newSketch } from '../../../src/runtime/distinct-sketch.js';
import { contextHash, ExposureBuffer } from '../../../src/runtime/exposure-buffer.js';

const sketchOf = (from: number, to: number) => {
  const s = newSketch();
  for (let i = from; i < to; i++) addToSketch(s, contextHash('user', `user-${i}`));
  return s;
};

describe('distinct-count sketch of exposures', () => {
  it('is close to exact for small counts and within 5 % for 100,000 contexts', () => {
    expect(estimateDistinct(newSketch())).toBe(0);
    expect(estimateDistinct(sketchOf(0, 1))).toBe(1);
    expect(Math.abs(estimateDistinct(sketchOf(0, 100)) - 100)).toBeLessThanOrEqual(3);
    const big = estimateDistinct(sketchOf(0, 100_000));
    expect(Math.abs(big - 100_000) / 100_000).toBeLessThan(0.05);
  });

  it('counts a context once however often it is added, and merges without double counting', () => {
    const twice = sketchOf(0, 500);
    for (let i = 0; i < 500; i++) addToSketch(twice, contextHash('user', `user-${i}`));
    expect(estimateDistinct(twice)).toBe(estimateDistinct(sketchOf(0, 500)));
    const merged = sketchOf(0, 600);
    mergeSketch(merged, sketchOf(300, 1000));
    expect(merged).toEqual(sketchOf(0, 1000));
  });

  it('round-trips through its stored form; an unreadable one is empty', () => {
    const s = sketchOf(0, 50);
    expect(decodeSketch(encodeSketch(s))).toEqual(s);
    expect(estimateDistinct(decodeSketch('not a sketch'))).toBe(0);
    expect(estimateDistinct(decodeSketch(null))).toBe(0);
  });

  it('buffers one sketch per environment, flag, UTC day and variant, within its bound', () => {
    const buffer = new ExposureBuffer(2);
    buffer.record('env', 'flag', 'a', contextHash('user', 'u1'), '2026-11-26T10:00:00.000Z');
    buffer.record('env', 'flag', 'a', contextHash('user', 'u2'), '2026-11-26T23:59:59.999Z');
    buffer.record('env', 'flag', 'a', contextHash('user', 'u1'), '2026-11-27T00:00:00.000Z');
    buffer.record('env', 'flag', 'b', contextHash('user', 'u3'), '2026-11-27T00:00:00.000Z');
    expect(buffer.droppedTotal).toBe(1);
    const drained = buffer.drain();
    expect(drained.map((s) => [s.day, s.variant, estimateDistinct(s.registers)])).toEqual([
      ['2026-11-26', 'a', 2],
      ['2026-11-27', 'a', 1],
    ]);
    expect(buffer.size).toBe(0);
    buffer.record('env', 'flag', 'a', contextHash('user', 'u9'), '2026-11-26T12:00:00.000Z');
    buffer.restore(drained);
    expect(buffer.drain().map((s) => [s.day, estimateDistinct(s.registers)])).toEqual([
      ['2026-11-26', 3],
      ['2026-11-27', 1],
    ]);
  });
});
