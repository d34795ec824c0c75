import { describe, expect, it } from 'vitest';
import {
  compileSnapshot,
  evaluateAll,
  evaluateFlag,
  updateSnapshot,
  type CompiledCriterion,
  type CompiledFlag,
  type CompiledSegment,
  type CompiledTarget,
  type Context,
  type EnvironmentConfig,
} from '../../../src/engine/index.js';
import { contexts, criterion, pick, rng, segments, type Rand } from './generated-config.js';

// Identical criteria are compiled into one object whose result is memoised for one evaluation
// call (comparers.ts). These tests build configurations where criteria repeat a lot (a pool
// shared by every rule, targets copied) and check that results never leak between calls,
// contexts or snapshots.

const ATTRIBUTES = ['plan', 'country', 'seats', 'email'];

function pooledTarget(r: Rand, pool: readonly CompiledCriterion[], tag: string): CompiledTarget {
  return {
    value: `${tag}-target`,
    rules: Array.from({ length: 1 + Math.floor(r() * 4) }, (_, i) => ({
      value: `${tag}-rule-${i}`,
      criteria: Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({ ...pick(r, pool) })),
    })),
  };
}

function pooledConfig(seed: number): EnvironmentConfig {
  const r = rng(seed);
  const pool = Array.from({ length: 8 }, () => criterion(r, ATTRIBUTES, false));
  const segs: CompiledSegment[] = segments(r, ATTRIBUTES).map((s) => ({
    ...s,
    rules: [
      {
        criteria: [
          {
            ...pick(
              r,
              pool.filter((c) => c.selector !== 'segment'),
            ),
          },
        ],
      },
      ...s.rules,
    ],
  }));
  const flags: CompiledFlag[] = Array.from({ length: 10 }, (_, i) => {
    const serving = pooledTarget(r, pool, `f${i}-s`);
    const rollout = r() < 0.6 ? { percentage: pick(r, [10, 50, 90]) } : null;
    return {
      key: `f${i}`,
      name: `F${i}`,
      type: 'string',
      include_in_mobile: true,
      include_in_client: true,
      default: { value: 'default' },
      serving,
      // the previous target carries the same rules with other values, as after a value change
      previous: rollout === null ? null : { value: 'prev', rules: serving.rules.map((x, j) => ({ ...x, value: `prev-${j}` })) },
      rollout,
    };
  });
  return { revision: 1, flags, segments: segs };
}

describe('criterion interning and memo', () => {
  it('compiles identical criteria into one object, different ones apart', () => {
    const c = (sub: string, comparer: string, values: string[]): CompiledCriterion =>
      ({ selector: 'attribute', sub_selector: sub, comparer, values }) as CompiledCriterion;
    const rule = (...criteria: CompiledCriterion[]) => ({ value: true, criteria });
    const base: CompiledFlag = {
      key: 'a',
      name: 'A',
      type: 'boolean',
      include_in_mobile: true,
      include_in_client: true,
      default: { value: false },
      serving: {
        value: false,
        rules: [
          rule(c('plan', 'in', ['x', 'y']), c('seats', 'gte', ['5'])),
          rule(c('plan', 'in', ['x', 'y']), c('seats', 'gte', ['6']), c('plan', 'notin', ['x', 'y'])),
        ],
      },
      previous: null,
      rollout: null,
    };
    const other: CompiledFlag = { ...base, key: 'b', serving: { value: false, rules: [rule(c('plan', 'in', ['x', 'y']))] } };
    const snap = compileSnapshot({ revision: 1, flags: [base, other], segments: [] });
    const rules = snap.flagMap.get('a')?.serving?.rules ?? [];
    const [r0, r1] = [rules[0]?.criteria ?? [], rules[1]?.criteria ?? []];
    const bRule = snap.flagMap.get('b')?.serving?.rules[0]?.criteria ?? [];
    expect(r0[0]).toBe(r1[0]);
    expect(r0[0]).toBe(bRule[0]);
    expect(r0[1]).not.toBe(r1[1]);
    expect(r1[2]).not.toBe(r0[0]); // negated form is its own criterion
    const on = (plan: string, seats: string): Context => ({
      type: 'user',
      identifier: 'u',
      attributes: [
        { key: 'plan', values: [{ value: plan }] },
        { key: 'seats', values: [{ value: seats }] },
      ],
    });
    expect(evaluateFlag(snap, 'a', on('x', '5'))?.resolved_by).toBe('rule');
    expect(evaluateFlag(snap, 'a', on('z', '5'))?.resolved_by).toBe('target');
    expect(evaluateAll(snap, on('y', '1')).map((o) => o.resolved_by)).toEqual(['target', 'rule']);
    expect(evaluateAll(snap, on('z', '9')).map((o) => o.resolved_by)).toEqual(['target', 'target']);
  });

  it.each(Array.from({ length: 20 }, (_, i) => [i + 1]))(
    'one long-lived snapshot evaluates like a fresh snapshot per call (config %i)',
    (seed) => {
      const config = pooledConfig(seed);
      const ctxs = contexts(rng(seed + 1000), ATTRIBUTES, 80);
      const keys = config.flags.map((f) => f.key);
      const snap = compileSnapshot(config);
      for (const c of ctxs) {
        for (const key of keys) expect(evaluateFlag(snap, key, c)).toEqual(evaluateFlag(compileSnapshot(config), key, c));
        expect(evaluateAll(snap, c)).toEqual(evaluateAll(compileSnapshot(config), c));
      }
    },
  );

  it('keeps memos apart between snapshots sharing compiled flags', () => {
    const config = pooledConfig(7);
    const ctxs = contexts(rng(7007), ATTRIBUTES, 60);
    const previous = compileSnapshot(config);
    // same flags reused: every criterion object is shared by both snapshots, whose own
    // per-snapshot call stamps start at the same number
    const updated = updateSnapshot(previous, { ...config, revision: 2 }, new Set());
    expect(updated.flagMap.get('f0')).toBe(previous.flagMap.get('f0'));
    for (let i = 0; i + 1 < ctxs.length; i += 2) {
      const [a, b] = [ctxs[i] ?? null, ctxs[i + 1] ?? null];
      expect(evaluateAll(previous, a)).toEqual(evaluateAll(compileSnapshot(config), a));
      expect(evaluateAll(updated, b)).toEqual(evaluateAll(compileSnapshot(config), b));
      for (const key of ['f0', 'f3', 'f7']) {
        expect(evaluateFlag(updated, key, a)).toEqual(evaluateFlag(compileSnapshot(config), key, a));
        expect(evaluateFlag(previous, key, b)).toEqual(evaluateFlag(compileSnapshot(config), key, b));
      }
    }
  });
});
