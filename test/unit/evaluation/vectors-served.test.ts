/**
 * Every vector of specs/evaluation-vectors.json through what the server answers: the OFREP
 * success (reason, variant, metadata) and the body of GET /v1/flags/{flagKey}, from the same
 * engine outcome the server serves.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSnapshot, evaluateFlag, type Context, type EnvironmentConfig, type JsonValue } from '../../../src/engine/index.js';
import { evaluatedFlagJson } from '../../../src/features/evaluation/evaluated-json.js';
import { toOfrepSuccess } from '../../../src/features/evaluation/ofrep-shape.js';

interface Vector {
  name: string;
  config: EnvironmentConfig;
  flag_key: string;
  context: Context | null;
  expected: { value: JsonValue; resolved_by: string; split?: { rule: number | null; variant: string; weight: number } } | null;
}

const file = JSON.parse(readFileSync(new URL('../../../specs/evaluation-vectors.json', import.meta.url), 'utf8')) as { vectors: Vector[] };
const REASONS: Record<string, string> = {
  rule: 'TARGETING_MATCH',
  rollout: 'SPLIT',
  target: 'STATIC',
  default: 'STATIC',
  prerequisite: 'PREREQUISITE_FAILED',
};

describe.each(file.vectors.filter((v) => v.expected !== null).map((v) => [v.name, v] as const))('%s', (_name, v) => {
  it('OFREP and the public evaluation body', () => {
    const snapshot = compileSnapshot(v.config);
    const outcome = evaluateFlag(snapshot, v.flag_key, v.context);
    const expected = v.expected!;
    if (outcome === undefined) return; // served only through a declared default, which OFREP has not
    const ofrep = toOfrepSuccess(outcome, 0);
    expect(ofrep.value).toEqual(expected.value);
    expect(ofrep.metadata.resolved_by).toBe(expected.resolved_by);
    if (expected.split !== undefined) {
      expect(ofrep).toMatchObject({ reason: 'SPLIT', variant: expected.split.variant, metadata: { split_weight: expected.split.weight } });
    } else {
      expect(ofrep.reason).toBe(REASONS[expected.resolved_by]);
      expect(ofrep.metadata.split_weight).toBeUndefined();
    }
    const body = JSON.parse(evaluatedFlagJson(snapshot, outcome)) as { data: { flag: { split?: unknown } } };
    expect(body.data.flag.split).toEqual(expected.split);
  });
});
