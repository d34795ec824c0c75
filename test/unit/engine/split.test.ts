import { describe, expect, it } from 'vitest';
import {
  compileSnapshot,
  evaluateFlag,
  SPLIT_WEIGHT_TOTAL,
  type CompiledFlag,
  type CompiledSplit,
  type CompiledTarget,
  type Context,
} from '../../../src/engine/index.js';

const share = (variant: string, percent: number) => ({ variant, value: variant, weight: Math.round(percent * 1000) });

function splitFlag(split: CompiledSplit, extra: Partial<CompiledFlag> = {}, target: Partial<CompiledTarget> = {}): CompiledFlag {
  return {
    key: 'checkout',
    name: 'Checkout',
    type: 'string',
    include_in_mobile: true,
    include_in_client: true,
    default: { value: 'off' },
    serving: { value: 'fallback', rules: [], split, ...target },
    previous: null,
    rollout: null,
    ...extra,
  };
}

function served(flag: CompiledFlag, contexts: readonly Context[]): string[] {
  const snapshot = compileSnapshot({ revision: 1, flags: [flag], segments: [] });
  return contexts.map((c) => String(evaluateFlag(snapshot, flag.key, c)?.value));
}

const users = (n: number): Context[] => Array.from({ length: n }, (_, i) => ({ type: 'user', identifier: `user-${i}` }));

function shares(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

describe('weighted splits', () => {
  it('lands a 34/33/33 split within 0.5 points of each weight over 100,000 identifiers', () => {
    const contexts = users(100_000);
    const counts = shares(served(splitFlag({ attribute: null, shares: [share('a', 34), share('b', 33), share('c', 33)] }), contexts));
    expect(counts.get('a')! / 1000).toBeGreaterThan(33.5);
    expect(counts.get('a')! / 1000).toBeLessThan(34.5);
    for (const v of ['b', 'c']) {
      expect(counts.get(v)! / 1000).toBeGreaterThan(32.5);
      expect(counts.get(v)! / 1000).toBeLessThan(33.5);
    }
  });

  it('after raising one weight by 10 points, moves no context between two values whose weights stayed the same', () => {
    const contexts = users(10_000);
    const before = served(
      splitFlag({ attribute: null, shares: [share('a', 25), share('b', 25), share('c', 25), share('d', 25)] }),
      contexts,
    );
    const after = served(
      splitFlag({ attribute: null, shares: [share('a', 35), share('b', 15), share('c', 25), share('d', 25)] }),
      contexts,
    );
    let moved = 0;
    for (let i = 0; i < contexts.length; i++) {
      const [was, is] = [before[i]!, after[i]!];
      if (was === is) continue;
      moved++;
      // Only the two changed values may gain or lose a context.
      expect(['c', 'd'].includes(was) && ['c', 'd'].includes(is)).toBe(false);
      expect(is === 'a' || was === 'b').toBe(true);
    }
    expect(moved).toBeGreaterThan(0);
  });

  it('after raising one weight by 10 points with the others in proportion, moves contexts only to the raised value, about 10 %', () => {
    const contexts = users(10_000);
    const before = served(splitFlag({ attribute: null, shares: [share('a', 34), share('b', 33), share('c', 33)] }), contexts);
    const after = served(splitFlag({ attribute: null, shares: [share('a', 44), share('b', 28), share('c', 28)] }), contexts);
    let moved = 0;
    for (let i = 0; i < contexts.length; i++) {
      if (before[i] === after[i]) continue;
      moved++;
      expect(after[i]).toBe('a');
    }
    expect(moved / contexts.length).toBeGreaterThan(0.08);
    expect(moved / contexts.length).toBeLessThan(0.12);
  });

  it('serves the same value to a context on every evaluation and every compilation', () => {
    const flag = splitFlag({ attribute: null, shares: [share('a', 50), share('b', 50)] });
    const contexts = users(200);
    expect(served(flag, contexts)).toEqual(served(flag, contexts));
    // Pinned results: the bucketing is part of the contract (specs/public.yaml, CompiledSplit).
    expect(served(flag, users(8))).toEqual(['b', 'a', 'b', 'b', 'a', 'a', 'b', 'a']);
  });

  it('names the split and the share of the served value', () => {
    const snapshot = compileSnapshot({
      revision: 1,
      flags: [
        splitFlag(
          { attribute: null, shares: [share('a', 100)] },
          {},
          {
            rules: [
              {
                value: 'rule-fallback',
                criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['gold'] }],
                split: { attribute: null, shares: [share('x', 0), share('y', 100)] },
              },
            ],
          },
        ),
      ],
      segments: [],
    });
    const gold = { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] };
    expect(evaluateFlag(snapshot, 'checkout', gold)).toEqual({
      key: 'checkout',
      name: 'Checkout',
      type: 'string',
      value: 'y',
      resolved_by: 'rule',
      split: { rule: 0, variant: 'y', weight: SPLIT_WEIGHT_TOTAL },
    });
    expect(evaluateFlag(snapshot, 'checkout', { type: 'user', identifier: 'u1' })).toEqual({
      key: 'checkout',
      name: 'Checkout',
      type: 'string',
      value: 'a',
      resolved_by: 'target',
      split: { rule: null, variant: 'a', weight: SPLIT_WEIGHT_TOTAL },
    });
  });

  it('buckets by the chosen attribute, and serves the plain value to a context without it', () => {
    const flag = splitFlag({ attribute: 'account', shares: [share('a', 50), share('b', 50)] });
    const inAccount = (id: string, account: string): Context => ({
      type: 'user',
      identifier: id,
      attributes: [{ key: 'account', values: [{ value: account }] }],
    });
    // Every member of one account gets one value, whatever their identifiers.
    for (let a = 0; a < 20; a++) {
      const values = served(
        flag,
        Array.from({ length: 10 }, (_, i) => inAccount(`user-${i}`, `account-${a}`)),
      );
      expect(new Set(values).size).toBe(1);
    }
    const snapshot = compileSnapshot({ revision: 1, flags: [flag], segments: [] });
    const without = evaluateFlag(snapshot, 'checkout', { type: 'user', identifier: 'x' });
    expect(without).toEqual({ key: 'checkout', name: 'Checkout', type: 'string', value: 'fallback', resolved_by: 'target' });
    expect(evaluateFlag(snapshot, 'checkout', null)?.value).toBe('fallback');
    expect(evaluateFlag(snapshot, 'checkout', inAccount('x', ''))?.value).toBe('fallback');
  });

  it('with a rollout, divides only the contexts the rollout gives the new target, as resolved_by rollout', () => {
    const flag = splitFlag(
      { attribute: null, shares: [share('a', 50), share('b', 50)] },
      { rollout: { percentage: 50 }, previous: { value: 'old', rules: [] } },
    );
    const snapshot = compileSnapshot({ revision: 1, flags: [flag], segments: [] });
    const seen = new Map<string, number>();
    for (const c of users(4000)) {
      const r = evaluateFlag(snapshot, 'checkout', c)!;
      seen.set(r.value as string, (seen.get(r.value as string) ?? 0) + 1);
      if (r.value === 'old') expect(r.resolved_by).toBe('target');
      else expect(r).toMatchObject({ resolved_by: 'rollout', split: { rule: null, variant: r.value, weight: 50000 } });
    }
    expect(seen.get('old')! / 4000).toBeGreaterThan(0.45);
    expect(seen.get('a')! / 4000).toBeGreaterThan(0.2);
    expect(seen.get('b')! / 4000).toBeGreaterThan(0.2);
  });
});
