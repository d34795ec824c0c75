import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explainFlag } from '../../../src/engine/explain.js';
import { compileSnapshot, evaluateFlag, type Context, type EnvironmentConfig } from '../../../src/engine/index.js';

interface Vector {
  name: string;
  config: EnvironmentConfig;
  flag_key: string;
  context: Context | null;
}

const file = JSON.parse(readFileSync(new URL('../../../specs/evaluation-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

/**
 * The explanation retraces evaluate.ts: on every evaluation vector, the rule it says matched
 * serves the value evaluateFlag serves, and without a match the target it names (or the default) does.
 */
describe('explainFlag', () => {
  it('agrees with evaluateFlag on every evaluation vector', () => {
    let withRules = 0;
    for (const v of file.vectors) {
      const snapshot = compileSnapshot(v.config);
      const outcome = evaluateFlag(snapshot, v.flag_key, v.context);
      const why = explainFlag(snapshot, v.flag_key, v.context);
      if (why === undefined) {
        expect(snapshot.flagMap.has(v.flag_key), v.name).toBe(false);
        continue;
      }
      const flag = snapshot.flagMap.get(v.flag_key)!;
      const target = why.target === 'serving' ? flag.serving : why.target === 'previous' ? flag.previous : null;
      const matched = why.rules.find((r) => r.matched);
      // Only the last rule tried can have matched; the ones before it name the criterion that failed.
      for (const r of why.rules.slice(0, -1)) expect(r.matched, v.name).toBe(false);
      for (const r of why.rules) expect(r.firstUnmatchedCriterion === null, v.name).toBe(r.matched);
      if (why.rules.length > 0) withRules++;
      if (why.prerequisiteFailed !== null) {
        // The flag's default value, or with none nothing (a declared default is the caller's).
        expect(outcome === undefined || outcome.resolved_by === 'prerequisite', v.name).toBe(true);
        expect(why.rules, v.name).toEqual([]);
      } else if (outcome?.resolved_by === 'prerequisite') {
        expect.fail(`${v.name}: a prerequisite failed but the explanation names none`);
      } else if (matched) {
        expect(outcome?.resolved_by, v.name).toBe('rule');
        // A rule with a split serves one of its shares (named by outcome.split), else its value.
        if (outcome?.split) expect(outcome.split.rule, v.name).toBe(matched.position);
        else expect(outcome?.value, v.name).toEqual(target!.rules[matched.position]!.value);
      } else if (target) {
        expect(why.rules.length, v.name).toBe(target.rules.length);
        if (outcome?.split) expect(outcome.split.rule, v.name).toBeNull();
        else expect(outcome?.value, v.name).toEqual(target.value);
        expect(outcome?.resolved_by, v.name).toBe(why.rollout?.inRollout ? 'rollout' : 'target');
      } else if (outcome) {
        expect(outcome.resolved_by, v.name).toBe('default');
      }
      if (why.rollout) expect(why.rollout.inRollout, v.name).toBe(why.target === 'serving');
    }
    expect(withRules).toBeGreaterThan(20);
  });

  it('names the first criterion that did not match, and the bucket of an identified context', () => {
    const config: EnvironmentConfig = {
      revision: 1,
      segments: [],
      flags: [
        {
          key: 'f',
          name: 'F',
          type: 'boolean',
          include_in_mobile: true,
          include_in_client: true,
          default: { value: false },
          serving: {
            value: false,
            rules: [
              {
                value: true,
                criteria: [
                  { selector: 'attribute', sub_selector: 'country', comparer: 'equal', values: ['FR'] },
                  { selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] },
                ],
              },
            ],
          },
          previous: null,
          rollout: { percentage: 100 },
        },
      ],
    };
    const snapshot = compileSnapshot(config);
    const context: Context = { type: 'user', identifier: 'u-1', attributes: [{ key: 'country', values: [{ value: 'FR' }] }] };
    const why = explainFlag(snapshot, 'f', context)!;
    expect(why.target).toBe('serving');
    expect(why.rules).toEqual([{ position: 0, matched: false, firstUnmatchedCriterion: 1 }]);
    expect(why.rollout).toEqual({ percentage: 100, bucket: expect.any(Number), inRollout: true });
    expect(explainFlag(snapshot, 'f', null)!.rollout).toEqual({ percentage: 100, bucket: null, inRollout: false });
    expect(explainFlag(snapshot, 'missing', null)).toBeUndefined();
  });
});
