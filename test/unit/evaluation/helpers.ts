import type { CompiledFlag, EnvironmentConfig } from '../../../src/engine/index.js';

/** A compiled flag with defaults for the fields a test does not care about. */
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

export function config(revision: number, flags: CompiledFlag[], segments: EnvironmentConfig['segments'] = []): EnvironmentConfig {
  return { revision, flags, segments };
}
