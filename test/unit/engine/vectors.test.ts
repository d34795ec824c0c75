import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compileSnapshot,
  evaluateAll,
  evaluateFlag,
  type Context,
  type DefaultValueDeclaration,
  type EnvironmentConfig,
  type EvaluationOutcome,
} from '../../../src/engine/index.js';

interface Vector {
  name: string;
  config: EnvironmentConfig;
  flag_key: string;
  context: Context | null;
  declared_defaults: DefaultValueDeclaration[];
  expected: { value: unknown; resolved_by: string; split?: EvaluationOutcome['split'] } | null;
}

const file = JSON.parse(readFileSync(new URL('../../../specs/evaluation-vectors.json', import.meta.url), 'utf8')) as {
  description: string;
  vectors: Vector[];
};

function pick(outcome: EvaluationOutcome | undefined): Vector['expected'] {
  if (outcome === undefined) return null;
  // `split` is present exactly when a split chose the value.
  if (outcome.split !== undefined) return { value: outcome.value, resolved_by: outcome.resolved_by, split: outcome.split };
  return { value: outcome.value, resolved_by: outcome.resolved_by };
}

describe('specs/evaluation-vectors.json', () => {
  it('is well formed', () => {
    expect(typeof file.description).toBe('string');
    expect(file.vectors.length).toBeGreaterThanOrEqual(150);
    const names = new Set(file.vectors.map((v) => v.name));
    expect(names.size).toBe(file.vectors.length);
    for (const v of file.vectors) {
      expect(Array.isArray(v.declared_defaults)).toBe(true);
      expect(v.expected === null || typeof v.expected.resolved_by === 'string').toBe(true);
    }
  });

  describe.each(file.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    it('evaluateFlag', () => {
      const snapshot = compileSnapshot(v.config);
      const type = snapshot.flag(v.flag_key)?.type;
      const declaration =
        v.declared_defaults.find((d) => d.key === v.flag_key && d.type === type) ?? v.declared_defaults.find((d) => d.key === v.flag_key);
      const outcome = evaluateFlag(snapshot, v.flag_key, v.context, declaration);
      expect(pick(outcome)).toEqual(v.expected);
      if (outcome !== undefined) {
        const flag = v.config.flags.find((f) => f.key === v.flag_key);
        expect(outcome.key).toBe(v.flag_key);
        expect(outcome.name).toBe(flag?.name);
        expect(outcome.type).toBe(flag?.type);
      }
      // evaluating again on the same snapshot (memoised scratch reused) gives the same result
      expect(pick(evaluateFlag(snapshot, v.flag_key, v.context, declaration))).toEqual(v.expected);
    });

    it('evaluateAll', () => {
      const snapshot = compileSnapshot(v.config);
      const all = evaluateAll(snapshot, v.context, v.declared_defaults);
      expect(pick(all.find((o) => o.key === v.flag_key))).toEqual(v.expected);
    });
  });
});
