import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileSnapshot,
  evaluateAll,
  evaluateFlag,
  updateSnapshot,
  type CompiledCriterion,
  type CompiledFlag,
  type CompiledTarget,
  type Context,
  type EnvironmentConfig,
  type Snapshot,
} from '../../../src/engine/index.js';
import { contexts, flag, rng, segments } from './generated-config.js';

/** Every flag evaluated alone and all together on every platform, for every context. */
function outcomes(snapshot: Snapshot, keys: readonly string[], ctxs: readonly (Context | null)[]): unknown[] {
  const out: unknown[] = [];
  for (const c of ctxs) {
    for (const key of keys) out.push(evaluateFlag(snapshot, key, c));
    out.push(evaluateAll(snapshot, c));
    out.push(evaluateAll(snapshot, c, [], { platform: 'mobile' }));
    out.push(evaluateAll(snapshot, c, [], { platform: 'client' }));
  }
  return out;
}

const OLD_ATTRIBUTES = ['plan', 'country', 'seats', 'email'];
const NEW_ATTRIBUTES = ['plan', 'seats', 'region', 'age', 'tier'];

describe('updateSnapshot', () => {
  it.each(Array.from({ length: 25 }, (_, i) => [i + 1]))('evaluates like compileSnapshot (generated config %i)', (seed) => {
    const r = rng(seed);
    const segs = segments(r, OLD_ATTRIBUTES);
    const oldFlags = Array.from({ length: 12 }, (_, i) => flag(r, `f${i}`, OLD_ATTRIBUTES, 'old'));
    const oldConfig: EnvironmentConfig = { revision: 1, flags: oldFlags, segments: segs };

    // changed flags (some using attribute names the old snapshot never saw), removed flags,
    // new flags, a different order and a duplicate key (first occurrence wins)
    const changed = new Set<string>();
    const newFlags: CompiledFlag[] = [];
    for (const f of oldFlags) {
      const roll = r();
      if (roll < 0.15) continue; // removed
      if (roll < 0.45) {
        changed.add(f.key);
        newFlags.push(flag(r, f.key, NEW_ATTRIBUTES, 'new'));
      } else {
        newFlags.push(f);
      }
    }
    for (let i = 0; i < 4; i++) {
      const key = `n${i}`;
      changed.add(key);
      newFlags.splice(Math.floor(r() * (newFlags.length + 1)), 0, flag(r, key, NEW_ATTRIBUTES, 'added'));
    }
    newFlags.reverse();
    if (newFlags.length > 0) newFlags.push(flag(r, (newFlags[0] as CompiledFlag).key, NEW_ATTRIBUTES, 'dup'));
    const newConfig: EnvironmentConfig = { revision: 2, flags: newFlags, segments: segs };

    const previous = compileSnapshot(oldConfig);
    const updated = updateSnapshot(previous, newConfig, changed);
    const fresh = compileSnapshot(newConfig);

    expect(updated.revision).toBe(2);
    expect(updated.keys()).toEqual(fresh.keys());
    expect(updated.flags()).toEqual(fresh.flags());
    const keys = [...fresh.keys(), 'f-unknown', ...oldFlags.map((f) => f.key)];
    const ctxs = contexts(r, [...OLD_ATTRIBUTES, ...NEW_ATTRIBUTES], 60);
    expect(outcomes(updated, keys, ctxs)).toEqual(outcomes(fresh, keys, ctxs));
    // the previous snapshot keeps evaluating its own configuration
    expect(outcomes(previous, keys, ctxs)).toEqual(outcomes(compileSnapshot(oldConfig), keys, ctxs));
  });

  it('reuses unchanged compiled flags and compiles changed and new ones', () => {
    const r = rng(99);
    const segs = segments(r, OLD_ATTRIBUTES);
    const a = flag(r, 'a', OLD_ATTRIBUTES, 'x');
    const b = flag(r, 'b', OLD_ATTRIBUTES, 'x');
    const c = flag(r, 'c', OLD_ATTRIBUTES, 'x');
    const previous = compileSnapshot({ revision: 1, flags: [a, b, c], segments: segs });
    const b2 = flag(r, 'b', NEW_ATTRIBUTES, 'y');
    const d = flag(r, 'd', NEW_ATTRIBUTES, 'y');
    const updated = updateSnapshot(previous, { revision: 2, flags: [d, c, b2, a], segments: segs }, new Set(['b', 'd']));

    expect(updated.keys()).toEqual(['d', 'c', 'b', 'a']);
    expect(updated.flagMap.get('a')).toBe(previous.flagMap.get('a'));
    expect(updated.flagMap.get('c')).toBe(previous.flagMap.get('c'));
    expect(updated.flagMap.get('b')).not.toBe(previous.flagMap.get('b'));
    expect(updated.flagMap.get('b')?.name).toBe('b y');
    expect(updated.flagList[0]).toBe(updated.flagMap.get('d'));
    // segments shared, not recompiled
    expect(updated.segments).toBe(previous.segments);
  });

  it('serves a changed flag as configured now, not as before', () => {
    const rule = (value: string, sub: string): CompiledTarget => ({
      value: 'base',
      rules: [{ value, criteria: [{ selector: 'attribute', sub_selector: sub, comparer: 'equal', values: ['on'] }] }],
    });
    const base: CompiledFlag = {
      key: 'k',
      name: 'K',
      type: 'string',
      include_in_mobile: true,
      include_in_client: true,
      default: null,
      serving: rule('old', 'plan'),
      previous: null,
      rollout: null,
    };
    const previous = compileSnapshot({ revision: 1, flags: [base], segments: [] });
    const next: EnvironmentConfig = { revision: 2, flags: [{ ...base, serving: rule('new', 'region') }], segments: [] };
    const updated = updateSnapshot(previous, next, new Set(['k']));
    const ctx: Context = { type: 'user', identifier: 'u', attributes: [{ key: 'region', values: [{ value: 'on' }] }] };
    expect(evaluateFlag(updated, 'k', ctx)?.value).toBe('new');
    expect(evaluateFlag(previous, 'k', ctx)?.value).toBe('base');
  });

  it('keeps previous attribute slots and gives new attribute names working slots', () => {
    const crit = (sub: string): CompiledCriterion => ({ selector: 'attribute', sub_selector: sub, comparer: 'equal', values: ['on'] });
    const mk = (key: string, subs: string[]): CompiledFlag => ({
      key,
      name: key,
      type: 'boolean',
      include_in_mobile: true,
      include_in_client: true,
      default: { value: false },
      serving: { value: false, rules: [{ value: true, criteria: subs.map(crit) }] },
      previous: null,
      rollout: null,
    });
    const previous = compileSnapshot({ revision: 1, flags: [mk('a', ['p', 'q'])], segments: [] });
    // compiled alone, 'r' would take slot 0 and 'q' slot 1: reused flag 'a' needs the old numbering
    const updated = updateSnapshot(
      previous,
      { revision: 2, flags: [mk('b', ['r', 'q']), mk('a', ['p', 'q'])], segments: [] },
      new Set(['b']),
    );
    expect(updated.attributeSlots.get('p')).toBe(previous.attributeSlots.get('p'));
    expect(updated.attributeSlots.get('q')).toBe(previous.attributeSlots.get('q'));
    expect(updated.attributeSlots.get('r')).toBe(2);
    expect(previous.attributeSlots.has('r')).toBe(false);
    const on = (...keys: string[]): Context => ({
      type: 'user',
      identifier: 'u',
      attributes: keys.map((key) => ({ key, values: [{ value: 'on' }] })),
    });
    expect(evaluateFlag(updated, 'b', on('r', 'q'))?.value).toBe(true);
    expect(evaluateFlag(updated, 'b', on('p', 'q'))?.value).toBe(false);
    expect(evaluateFlag(updated, 'a', on('p', 'q'))?.value).toBe(true);
    expect(evaluateFlag(updated, 'a', on('r', 'q'))?.value).toBe(false);
    expect(evaluateAll(updated, on('r', 'q', 'p')).map((o) => o.value)).toEqual([true, true]);
  });

  it('matches compileSnapshot on every evaluation vector', () => {
    const file = JSON.parse(readFileSync(new URL('../../../specs/evaluation-vectors.json', import.meta.url), 'utf8')) as {
      vectors: { config: EnvironmentConfig; flag_key: string; context: Context | null }[];
    };
    for (const v of file.vectors) {
      const fresh = compileSnapshot(v.config);
      const all = new Set(v.config.flags.map((f) => f.key));
      // from a snapshot with the same segments and no flags (everything new), from the same
      // configuration with nothing changed (everything reused), and with everything changed
      const empty = compileSnapshot({ ...v.config, flags: [] });
      for (const updated of [
        updateSnapshot(empty, v.config, new Set()),
        updateSnapshot(fresh, v.config, new Set()),
        updateSnapshot(compileSnapshot(v.config), v.config, all),
      ]) {
        expect(evaluateFlag(updated, v.flag_key, v.context)).toEqual(evaluateFlag(fresh, v.flag_key, v.context));
        expect(evaluateAll(updated, v.context)).toEqual(evaluateAll(fresh, v.context));
      }
    }
  });
});
