import { describe, expect, it } from 'vitest';
import { isJsonValue, parseContext, parseDefaultValues, parseNumeric } from '../../../src/engine/index.js';

describe('parseContext', () => {
  it('accepts a minimal context', () => {
    expect(parseContext({ type: 'user', identifier: 'u1' })).toEqual({ ok: true, context: { type: 'user', identifier: 'u1' } });
  });

  it('accepts name and attributes and returns a copy', () => {
    const input = {
      type: 'user',
      identifier: 'u1',
      name: 'Ann',
      attributes: [
        { key: 'plan', values: [{ value: 'gold' }] },
        { key: 'tags', values: [{ value: 'a' }, { value: '' }] },
        { key: 'none', values: [] },
      ],
    };
    const result = parseContext(input);
    expect(result).toEqual({ ok: true, context: input });
    if (result.ok) {
      expect(result.context).not.toBe(input);
      expect(result.context.attributes).not.toBe(input.attributes);
    }
  });

  it('accepts limits exactly', () => {
    expect(parseContext({ type: 't'.repeat(200), identifier: 'i'.repeat(1000) }).ok).toBe(true);
    expect(parseContext({ type: 'user', identifier: 'u', attributes: [] }).ok).toBe(true);
  });

  const invalid: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['a string', 'user'],
    ['a number', 1],
    ['an array', [{ type: 'user', identifier: 'u1' }]],
    ['missing type', { identifier: 'u1' }],
    ['missing identifier', { type: 'user' }],
    ['empty type', { type: '', identifier: 'u1' }],
    ['empty identifier', { type: 'user', identifier: '' }],
    ['numeric identifier', { type: 'user', identifier: 42 }],
    ['null identifier', { type: 'user', identifier: null }],
    ['boolean type', { type: true, identifier: 'u1' }],
    ['type over 200 characters', { type: 't'.repeat(201), identifier: 'u1' }],
    ['identifier over 1000 characters', { type: 'user', identifier: 'i'.repeat(1001) }],
    ['null name', { type: 'user', identifier: 'u1', name: null }],
    ['numeric name', { type: 'user', identifier: 'u1', name: 3 }],
    ['unknown member', { type: 'user', identifier: 'u1', email: 'a@b.c' }],
    ['attributes not an array', { type: 'user', identifier: 'u1', attributes: { plan: 'gold' } }],
    ['attribute not an object', { type: 'user', identifier: 'u1', attributes: ['plan'] }],
    ['attribute without key', { type: 'user', identifier: 'u1', attributes: [{ values: [] }] }],
    ['attribute numeric key', { type: 'user', identifier: 'u1', attributes: [{ key: 1, values: [] }] }],
    ['attribute without values', { type: 'user', identifier: 'u1', attributes: [{ key: 'plan' }] }],
    ['attribute values not an array', { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: 'gold' }] }],
    ['attribute value is a bare string', { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: ['gold'] }] }],
    ['attribute value is a number', { type: 'user', identifier: 'u1', attributes: [{ key: 'age', values: [{ value: 30 }] }] }],
    ['attribute value is a boolean', { type: 'user', identifier: 'u1', attributes: [{ key: 'vip', values: [{ value: true }] }] }],
    ['attribute value is null', { type: 'user', identifier: 'u1', attributes: [{ key: 'vip', values: [{ value: null }] }] }],
    ['attribute value object without value', { type: 'user', identifier: 'u1', attributes: [{ key: 'vip', values: [{}] }] }],
    [
      'attribute value with extra member',
      { type: 'user', identifier: 'u1', attributes: [{ key: 'vip', values: [{ value: 'x', other: 1 }] }] },
    ],
    ['attribute with extra member', { type: 'user', identifier: 'u1', attributes: [{ key: 'vip', values: [], kind: 'x' }] }],
    ['attributes as null', { type: 'user', identifier: 'u1', attributes: null }],
  ];
  it.each(invalid)('rejects %s', (_label, input) => {
    const result = parseContext(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
  });
});

describe('parseDefaultValues', () => {
  it('accepts every type with a fitting value', () => {
    const input = [
      { key: 'a', type: 'boolean', value: false },
      { key: 'b', type: 'number', value: -1.5 },
      { key: 'c', type: 'string', value: '' },
      { key: 'd', type: 'json', value: { nested: [1, { deep: null }], s: 'x' } },
      { key: 'e', type: 'json', value: null },
      { key: 'f', type: 'json', value: 3 },
    ];
    const result = parseDefaultValues(input);
    expect(result).toEqual({ ok: true, declarations: input });
  });

  it('accepts an empty array', () => {
    expect(parseDefaultValues([])).toEqual({ ok: true, declarations: [] });
  });

  const invalid: [string, unknown][] = [
    ['an object', { key: 'a', type: 'boolean', value: true }],
    ['null', null],
    ['a string', '[]'],
    ['an entry that is not an object', ['a']],
    ['missing key', [{ type: 'boolean', value: true }]],
    ['empty key', [{ key: '', type: 'boolean', value: true }]],
    ['numeric key', [{ key: 1, type: 'boolean', value: true }]],
    ['missing type', [{ key: 'a', value: true }]],
    ['unknown type', [{ key: 'a', type: 'integer', value: 1 }]],
    ['missing value', [{ key: 'a', type: 'json' }]],
    ['boolean declared with a string', [{ key: 'a', type: 'boolean', value: 'true' }]],
    ['number declared with a string', [{ key: 'a', type: 'number', value: '1' }]],
    ['number declared with NaN', [{ key: 'a', type: 'number', value: NaN }]],
    ['number declared with Infinity', [{ key: 'a', type: 'number', value: Infinity }]],
    ['string declared with null', [{ key: 'a', type: 'string', value: null }]],
    ['string declared with a number', [{ key: 'a', type: 'string', value: 1 }]],
    ['json declared with undefined', [{ key: 'a', type: 'json', value: undefined }]],
    ['json containing a non-finite number', [{ key: 'a', type: 'json', value: { n: Infinity } }]],
    ['json containing a function', [{ key: 'a', type: 'json', value: [() => 1] }]],
    ['json nested too deeply', [{ key: 'a', type: 'json', value: JSON.parse('['.repeat(70) + ']'.repeat(70)) }]],
    ['extra member', [{ key: 'a', type: 'boolean', value: true, note: 'x' }]],
    [
      'one bad entry among good ones',
      [
        { key: 'a', type: 'boolean', value: true },
        { key: 'b', type: 'boolean', value: 1 },
      ],
    ],
  ];
  it.each(invalid)('rejects %s', (_label, input) => {
    const result = parseDefaultValues(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeGreaterThan(0);
  });

  it('isJsonValue rejects class instances', () => {
    expect(isJsonValue(new Date())).toBe(false);
    expect(isJsonValue(new Map())).toBe(false);
    expect(isJsonValue({ a: [1, 'b', null, true] })).toBe(true);
  });
});

describe('parseNumeric', () => {
  it.each([
    ['0', 0],
    ['-0', -0],
    ['10', 10],
    ['010', 10],
    ['-3.25', -3.25],
    ['1e3', 1000],
    ['1E+3', 1000],
    ['5e-3', 0.005],
    ['123456789012345678901234567890', 1.2345678901234568e29],
  ])('%j is numeric', (s, n) => {
    expect(parseNumeric(s)).toBe(n);
  });

  it.each([
    '',
    '-',
    '+1',
    ' 1',
    '1 ',
    '.5',
    '5.',
    '1.2.3',
    '0x10',
    '1e',
    '1e+',
    'e5',
    'Infinity',
    '-Infinity',
    'NaN',
    '1e400',
    '1_000',
    '١٢',
  ])('%j is not numeric', (s) => {
    expect(Number.isNaN(parseNumeric(s))).toBe(true);
  });
});
