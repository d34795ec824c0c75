/**
 * Seeded generator of engine configurations and contexts for property-style tests
 * (mulberry32: deterministic, so a failure reproduces).
 */
import {
  COMPARERS,
  type CompiledCriterion,
  type CompiledFlag,
  type CompiledSegment,
  type CompiledTarget,
  type Context,
} from '../../../src/engine/index.js';

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rand = () => number;
export const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
const VALUES = ['a', 'b', 'ab', 'ba', '', '1', '5', '10', '-2.5', '1e2', 'x@example.com', 'example.com'];
const SEGMENT_KEYS = ['beta', 'staff', 'vip', 'missing'];
const TYPES = ['user', 'org'];

export function criterion(r: Rand, attributes: readonly string[], inSegment: boolean): CompiledCriterion {
  const roll = r();
  const values = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(r, VALUES));
  if (roll < 0.15) {
    return {
      selector: 'context',
      sub_selector: r() < 0.5 ? null : pick(r, TYPES),
      comparer: pick(r, ['equal', 'notin']),
      values: ['u1', 'u2', 'o1'].slice(0, 1 + Math.floor(r() * 3)),
    };
  }
  if (roll < 0.25 && !inSegment) {
    return { selector: 'segment', sub_selector: null, comparer: pick(r, ['in', 'notin']), values: [pick(r, SEGMENT_KEYS)] };
  }
  return { selector: 'attribute', sub_selector: pick(r, attributes), comparer: pick(r, COMPARERS), values };
}

export function target(r: Rand, attributes: readonly string[], tag: string): CompiledTarget {
  const rules = Array.from({ length: Math.floor(r() * 4) }, (_, i) => ({
    value: `${tag}-rule-${i}`,
    criteria: Array.from({ length: 1 + Math.floor(r() * 3) }, () => criterion(r, attributes, false)),
  }));
  return { value: `${tag}-target`, rules };
}

export function flag(r: Rand, key: string, attributes: readonly string[], tag: string): CompiledFlag {
  const rollout = r() < 0.4 ? { percentage: pick(r, [0, 10, 50, 99.5, 100]) } : null;
  return {
    key,
    name: `${key} ${tag}`,
    type: 'string',
    include_in_mobile: r() < 0.8,
    include_in_client: r() < 0.8,
    default: r() < 0.7 ? { value: `${tag}-default` } : null,
    serving: r() < 0.9 ? target(r, attributes, `${tag}-s`) : null,
    previous: rollout !== null && r() < 0.7 ? target(r, attributes, `${tag}-p`) : null,
    rollout,
  };
}

export function segments(r: Rand, attributes: readonly string[]): CompiledSegment[] {
  return SEGMENT_KEYS.slice(0, 3).map((key) => ({
    key,
    included: ['u1', 'o2'].filter(() => r() < 0.5),
    excluded: ['u2'].filter(() => r() < 0.5),
    rules: Array.from({ length: Math.floor(r() * 3) }, () => ({
      criteria: Array.from({ length: 1 + Math.floor(r() * 2) }, () => criterion(r, attributes, true)),
    })),
  }));
}

export function contexts(r: Rand, attributes: readonly string[], count: number): (Context | null)[] {
  const out: (Context | null)[] = [null];
  for (let i = 0; i < count; i++) {
    out.push({
      type: pick(r, TYPES),
      identifier: pick(r, ['u1', 'u2', 'o1', 'o2', '', `id-${i}`]),
      attributes: attributes
        .filter(() => r() < 0.6)
        .map((key) => ({ key, values: Array.from({ length: Math.floor(r() * 3) }, () => ({ value: pick(r, VALUES) })) })),
    });
  }
  return out;
}
