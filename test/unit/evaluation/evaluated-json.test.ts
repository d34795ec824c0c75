import { describe, expect, it } from 'vitest';
import type { EvaluationOutcome } from '../../../src/engine/index.js';
import { evaluatedFlagJson, evaluatedListJson } from '../../../src/features/evaluation/evaluated-json.js';

/** The documented object form (specs/public.yaml EvaluatedFlag), serialised the ordinary way. */
const item = (o: EvaluationOutcome) => ({ flag: { key: o.key, name: o.name, type: o.type, value: { [o.type]: o.value } } });

const outcome = (key: string, name: string, type: EvaluationOutcome['type'], value: EvaluationOutcome['value']) =>
  ({ key, name, type, value, resolved_by: 'target' }) as EvaluationOutcome;

const outcomes = [
  outcome('a', 'Plain', 'boolean', true),
  outcome('b', 'Quote " and \\ backslash', 'string', 'line\nbreak \u2028 ü 😀'),
  outcome('c', 'Zahl', 'number', 1.5e-7),
  outcome('d', '</script>', 'json', { nested: [1, null, { x: 'y' }] }),
  outcome('e', 'Null json', 'json', null),
];

describe('evaluated flag bodies written as text', () => {
  it('are byte for byte what JSON.stringify gives for the object form', () => {
    const snapshot = { has: (key: string) => key !== 'e' };
    const list = JSON.stringify({ status: 'success', data: outcomes.map(item) });
    expect(evaluatedListJson(snapshot, outcomes).toString('utf8')).toBe(list);
    // Again, with the items' bytes kept from the first time, and with both booleans.
    expect(evaluatedListJson(snapshot, outcomes).toString('utf8')).toBe(list);
    const flipped = [outcome('a', 'Plain', 'boolean', false), ...outcomes];
    expect(evaluatedListJson(snapshot, flipped).toString('utf8')).toBe(JSON.stringify({ status: 'success', data: flipped.map(item) }));
    expect(evaluatedListJson(snapshot, []).toString('utf8')).toBe('{"status":"success","data":[]}');
    for (const o of outcomes) {
      expect(evaluatedFlagJson(snapshot, o)).toBe(JSON.stringify({ status: 'success', data: item(o) }));
    }
  });

  it('does not reuse a cached prefix once the flag name or type differs', () => {
    const snapshot = { has: () => true };
    expect(evaluatedFlagJson(snapshot, outcome('k', 'One', 'boolean', false))).toContain('"name":"One","type":"boolean"');
    const renamed = outcome('k', 'Two', 'string', 'x');
    expect(evaluatedFlagJson(snapshot, renamed)).toBe(JSON.stringify({ status: 'success', data: item(renamed) }));
  });
});
