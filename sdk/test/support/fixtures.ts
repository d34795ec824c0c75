import type { CompiledFlag, EnvironmentConfig } from '../../../src/engine/index.js';

export function flag(partial: Partial<CompiledFlag> & Pick<CompiledFlag, 'key' | 'type'>): CompiledFlag {
  return {
    name: `Flag ${partial.key}`,
    include_in_mobile: true,
    include_in_client: true,
    default: null,
    serving: null,
    previous: null,
    rollout: null,
    ...partial,
  };
}

/** A small environment exercising every resolution and type. */
export function baseConfig(revision = 1): EnvironmentConfig {
  return {
    revision,
    flags: [
      flag({ key: 'banner', type: 'string', default: { value: 'Welcome' } }),
      flag({
        key: 'max-items',
        type: 'number',
        default: { value: 10 },
        serving: { value: 50, rules: [] },
        previous: { value: 20, rules: [] },
        rollout: { percentage: 100 },
      }),
      flag({
        key: 'mobile-only',
        type: 'boolean',
        include_in_client: false,
        default: { value: false },
        serving: { value: true, rules: [] },
      }),
      flag({
        key: 'new-checkout',
        type: 'boolean',
        default: { value: false },
        serving: {
          value: false,
          rules: [
            { value: true, criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: ['gold', 'platinum'] }] },
          ],
        },
      }),
      flag({ key: 'orphan', type: 'string' }),
      flag({
        key: 'theme',
        type: 'json',
        default: { value: { primary: '#000000', dense: false } },
        serving: {
          value: { primary: '#0055ff', dense: false },
          rules: [
            {
              value: { primary: '#0055ff', dense: true },
              criteria: [{ selector: 'segment', sub_selector: null, comparer: 'in', values: ['beta'] }],
            },
          ],
        },
      }),
    ],
    segments: [{ key: 'beta', included: ['u-beta'], excluded: [], rules: [] }],
  };
}

export const gold = { type: 'user', identifier: 'u-1', attributes: [{ key: 'plan', values: [{ value: 'gold' }] }] } as const;
export const basic = { type: 'user', identifier: 'u-2', attributes: [{ key: 'plan', values: [{ value: 'basic' }] }] } as const;
export const beta = { type: 'user', identifier: 'u-beta' } as const;

/** Sets new-checkout's base value (what a publish of a new target changes). */
export function withCheckoutBase(value: boolean) {
  return (config: EnvironmentConfig): EnvironmentConfig => ({
    ...config,
    flags: config.flags.map((f) => (f.key === 'new-checkout' && f.serving ? { ...f, serving: { ...f.serving, value } } : f)),
  });
}
