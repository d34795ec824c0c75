import { describe, expect, it } from 'vitest';
import { compileSnapshot, evaluateAll, evaluateFlag, type CompiledFlag, type EnvironmentConfig } from '../../../src/engine/index.js';

function flag(key: string, extra: Partial<CompiledFlag> = {}): CompiledFlag {
  return {
    key,
    name: key.toUpperCase(),
    type: 'string',
    include_in_mobile: true,
    include_in_client: true,
    default: { value: `${key}-default` },
    serving: { value: `${key}-target`, rules: [] },
    previous: null,
    rollout: null,
    ...extra,
  };
}

const config: EnvironmentConfig = {
  revision: 7,
  flags: [
    flag('b'),
    flag('a', {
      serving: {
        value: 'a-target',
        rules: [
          { value: 'a-gold', criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['gold'] }] },
          { value: 'a-beta', criteria: [{ selector: 'segment', sub_selector: null, comparer: 'in', values: ['beta'] }] },
        ],
      },
    }),
    flag('mobile-off', { include_in_mobile: false }),
    flag('client-off', { include_in_client: false }),
    flag('empty', { default: null, serving: null }),
    flag('numeric', { type: 'number', default: null, serving: null }),
  ],
  segments: [{ key: 'beta', included: ['tester'], excluded: [], rules: [] }],
};

describe('snapshot', () => {
  it('exposes revision, keys and flag descriptions', () => {
    const s = compileSnapshot(config);
    expect(s.revision).toBe(7);
    expect(s.size).toBe(6);
    expect(s.keys()).toEqual(['b', 'a', 'mobile-off', 'client-off', 'empty', 'numeric']);
    expect(s.has('a')).toBe(true);
    expect(s.has('zzz')).toBe(false);
    expect(s.flag('mobile-off')).toEqual({
      key: 'mobile-off',
      name: 'MOBILE-OFF',
      type: 'string',
      include_in_mobile: false,
      include_in_client: true,
    });
    expect(s.flag('zzz')).toBeUndefined();
    expect(s.flags().map((f) => f.key)).toEqual(s.keys());
  });

  it('does not modify the configuration', () => {
    const copy = JSON.parse(JSON.stringify(config)) as EnvironmentConfig;
    const s = compileSnapshot(copy);
    evaluateAll(s, { type: 'user', identifier: 'tester', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] });
    expect(copy).toEqual(config);
  });
});

describe('evaluateFlag', () => {
  it('returns key, name, type, value and resolved_by', () => {
    const s = compileSnapshot(config);
    expect(evaluateFlag(s, 'a', { type: 'user', identifier: 'u1' })).toEqual({
      key: 'a',
      name: 'A',
      type: 'string',
      value: 'a-target',
      resolved_by: 'target',
    });
  });

  it('does not leak memoised lookups from one call to the next', () => {
    const s = compileSnapshot(config);
    const gold = { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] };
    const free = { type: 'user', identifier: 'u2', attributes: [{ key: 'plan', values: [{ value: 'free' }] }] };
    const tester = { type: 'user', identifier: 'tester' };
    for (let i = 0; i < 3; i++) {
      expect(evaluateFlag(s, 'a', gold)?.value).toBe('a-gold');
      expect(evaluateFlag(s, 'a', free)?.value).toBe('a-target');
      expect(evaluateFlag(s, 'a', tester)?.value).toBe('a-beta');
      expect(evaluateFlag(s, 'a', null)?.value).toBe('a-target');
      expect(evaluateFlag(s, 'a', free)?.value).toBe('a-target');
    }
  });

  it('keeps working across many calls (stamp wrap-around)', () => {
    const s = compileSnapshot(config);
    s.stamp = 0x3fffffff - 2;
    const gold = { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] };
    const free = { type: 'user', identifier: 'u2' };
    for (let i = 0; i < 6; i++) {
      expect(evaluateFlag(s, 'a', i % 2 === 0 ? gold : free)?.value).toBe(i % 2 === 0 ? 'a-gold' : 'a-target');
    }
    expect(s.stamp).toBeLessThan(10);
  });

  it('serves a declared default only with the same key and type', () => {
    const s = compileSnapshot(config);
    expect(evaluateFlag(s, 'empty', null)).toBeUndefined();
    expect(evaluateFlag(s, 'empty', null, { key: 'empty', type: 'string', value: 'x' })).toEqual({
      key: 'empty',
      name: 'EMPTY',
      type: 'string',
      value: 'x',
      resolved_by: 'default',
    });
    expect(evaluateFlag(s, 'empty', null, { key: 'empty', type: 'number', value: 1 })).toBeUndefined();
    expect(evaluateFlag(s, 'empty', null, { key: 'other', type: 'string', value: 'x' })).toBeUndefined();
    // a declaration whose value does not fit its type is ignored
    expect(evaluateFlag(s, 'numeric', null, { key: 'numeric', type: 'number', value: Number.NaN })).toBeUndefined();
    expect(evaluateFlag(s, 'zzz', null, { key: 'zzz', type: 'string', value: 'x' })).toBeUndefined();
  });
});

describe('evaluateAll', () => {
  it('returns available flags in configuration order', () => {
    const s = compileSnapshot(config);
    const all = evaluateAll(s, { type: 'user', identifier: 'tester' }, []);
    expect(all.map((o) => [o.key, o.value, o.resolved_by])).toEqual([
      ['b', 'b-target', 'target'],
      ['a', 'a-beta', 'rule'],
      ['mobile-off', 'mobile-off-target', 'target'],
      ['client-off', 'client-off-target', 'target'],
    ]);
  });

  it('adds declared defaults of flags with nothing to serve, ignores unknown keys and wrong types', () => {
    const s = compileSnapshot(config);
    const all = evaluateAll(s, null, [
      { key: 'unknown', type: 'string', value: 'x' },
      { key: 'numeric', type: 'string', value: 'wrong type' },
      { key: 'numeric', type: 'number', value: 42 },
      { key: 'empty', type: 'string', value: 'declared' },
      { key: 'b', type: 'string', value: 'not used' },
    ]);
    expect(all.map((o) => [o.key, o.value, o.resolved_by])).toEqual([
      ['b', 'b-target', 'target'],
      ['a', 'a-target', 'target'],
      ['mobile-off', 'mobile-off-target', 'target'],
      ['client-off', 'client-off-target', 'target'],
      ['empty', 'declared', 'default'],
      ['numeric', 42, 'default'],
    ]);
  });

  it('filters by platform', () => {
    const s = compileSnapshot(config);
    const keys = (platform: 'server' | 'mobile' | 'client'): string[] => evaluateAll(s, null, [], { platform }).map((o) => o.key);
    expect(keys('server')).toEqual(['b', 'a', 'mobile-off', 'client-off']);
    expect(keys('mobile')).toEqual(['b', 'a', 'client-off']);
    expect(keys('client')).toEqual(['b', 'a', 'mobile-off']);
  });

  it('defaults declarations to none', () => {
    const s = compileSnapshot(config);
    expect(evaluateAll(s, null).length).toBe(4);
  });
});
