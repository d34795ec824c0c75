import { describe, expect, it } from 'vitest';
import {
  DisplayError,
  MAX_DISPLAY_BYTES,
  displayDigest,
  jsonDepth,
  normaliseDisplay,
  parseStoredDisplay,
} from '../../../src/features/flag-values/display.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('normaliseDisplay: boolean', () => {
  it('accepts exactly true and false', () => {
    expect(normaliseDisplay('boolean', 'true')).toMatchObject({ display: 'true', value: true });
    expect(normaliseDisplay('boolean', 'false')).toMatchObject({ display: 'false', value: false });
  });
  it.each(['TRUE', 'True', ' true', 'true ', '1', '0', 'yes', '', '"true"', 'null'])('refuses %j', (input) => {
    expect(() => normaliseDisplay('boolean', input)).toThrow(DisplayError);
  });
});

describe('normaliseDisplay: number', () => {
  it.each([
    ['1.50', '1.5', 1.5],
    ['1e3', '1000', 1000],
    ['1E3', '1000', 1000],
    ['1e+3', '1000', 1000],
    ['-0', '0', 0],
    ['-0.0', '0', 0],
    ['0', '0', 0],
    ['42', '42', 42],
    ['-1.25', '-1.25', -1.25],
    ['2.50e-1', '0.25', 0.25],
    ['100.000', '100', 100],
    ['1e21', '1e+21', 1e21],
    ['0.0000001', '1e-7', 1e-7],
  ])('%j is stored as %j', (input, display, value) => {
    const n = normaliseDisplay('number', input);
    expect(n.display).toBe(display);
    expect(n.value).toBe(value);
    expect(Object.is(n.value, -0)).toBe(false);
  });

  it.each([
    '+1',
    '0x10',
    'NaN',
    'Infinity',
    '-Infinity',
    'abc',
    '',
    ' 1',
    '1 ',
    '01',
    '.5',
    '1.',
    '1e',
    '--1',
    '1,5',
    '1e400',
    '-1e400',
    '"1"',
    'true',
  ])('refuses %j', (input) => {
    expect(() => normaliseDisplay('number', input)).toThrow(DisplayError);
  });

  it('gives equal numbers one digest', () => {
    expect(normaliseDisplay('number', '1.50').digest).toBe(normaliseDisplay('number', '1.5').digest);
    expect(normaliseDisplay('number', '1e3').digest).toBe(normaliseDisplay('number', '1000').digest);
    expect(normaliseDisplay('number', '-0').digest).toBe(normaliseDisplay('number', '0').digest);
  });
});

describe('normaliseDisplay: string', () => {
  it('keeps any string as is, the empty string included', () => {
    for (const s of ['', ' padded ', 'ünïcödé ✓', '{"not":"parsed"}', 'true', '1.50']) {
      expect(normaliseDisplay('string', s)).toMatchObject({ display: s, value: s });
    }
  });
  it('accepts exactly 64 KB and refuses one byte more', () => {
    expect(normaliseDisplay('string', 'a'.repeat(MAX_DISPLAY_BYTES)).display).toHaveLength(MAX_DISPLAY_BYTES);
    expect(() => normaliseDisplay('string', 'a'.repeat(MAX_DISPLAY_BYTES + 1))).toThrow(DisplayError);
  });
  it('counts UTF-8 bytes, not characters', () => {
    // "é" is two bytes: 32768 of them are exactly 64 KB.
    expect(() => normaliseDisplay('string', 'é'.repeat(32_768))).not.toThrow();
    expect(() => normaliseDisplay('string', 'é'.repeat(32_768) + 'a')).toThrow(DisplayError);
  });
});

describe('normaliseDisplay: json', () => {
  it('stores compact JSON and keeps member order', () => {
    const n = normaliseDisplay('json', '{ "b" : 1,\n "a" : [ 1 , 2.50 ] }');
    expect(n.display).toBe('{"b":1,"a":[1,2.5]}');
    expect(n.value).toEqual({ b: 1, a: [1, 2.5] });
  });
  it('accepts every JSON document kind', () => {
    expect(normaliseDisplay('json', 'null').value).toBeNull();
    expect(normaliseDisplay('json', ' "x" ').display).toBe('"x"');
    expect(normaliseDisplay('json', '12.0').display).toBe('12');
    expect(normaliseDisplay('json', 'true').value).toBe(true);
    expect(normaliseDisplay('json', '[]').value).toEqual([]);
  });
  it('gives documents differing only by whitespace one digest', () => {
    expect(normaliseDisplay('json', '{"a": 1}').digest).toBe(normaliseDisplay('json', '{\n  "a":1\n}').digest);
  });
  it.each(['', '{', '{"a":}', "{'a':1}", 'undefined', 'NaN', '[1,]', '{"a":1}x'])('refuses %j', (input) => {
    expect(() => normaliseDisplay('json', input)).toThrow(DisplayError);
  });
  it('accepts 10 levels of nesting and refuses 11', () => {
    expect(normaliseDisplay('json', nested(10)).display).toBe(nested(10));
    expect(() => normaliseDisplay('json', nested(11))).toThrow(/10 levels/);
    expect(normaliseDisplay('json', '{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":1}}}}}}}}}}').value).toBeTruthy();
    expect(() => normaliseDisplay('json', '{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":[]}}}}}}}}}}')).toThrow(DisplayError);
  });
  it('refuses very deep input before parsing it', () => {
    expect(() => normaliseDisplay('json', nested(200_000))).toThrow(/10 levels/);
  });
  it('accepts exactly 64 KB after compaction and refuses one byte more', () => {
    const exact = JSON.stringify('a'.repeat(MAX_DISPLAY_BYTES - 2));
    expect(Buffer.byteLength(exact)).toBe(MAX_DISPLAY_BYTES);
    expect(normaliseDisplay('json', exact).display).toBe(exact);
    expect(() => normaliseDisplay('json', JSON.stringify('a'.repeat(MAX_DISPLAY_BYTES - 1)))).toThrow(/64 KB/);
    // Whitespace does not count: it is removed before measuring.
    expect(normaliseDisplay('json', `   ${exact}   `).display).toBe(exact);
  });
});

describe('jsonDepth', () => {
  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('"[[[["')).toBe(0);
    expect(jsonDepth('["\\"[[[", {"a": "}}}"}]')).toBe(2);
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('[[1],[[2]]]')).toBe(3);
  });
});

describe('parseStoredDisplay and displayDigest', () => {
  it('reads back the typed value of a stored display', () => {
    expect(parseStoredDisplay('boolean', 'false')).toBe(false);
    expect(parseStoredDisplay('number', '1.5')).toBe(1.5);
    expect(parseStoredDisplay('string', '1.5')).toBe('1.5');
    expect(parseStoredDisplay('json', '{"a":[1]}')).toEqual({ a: [1] });
  });
  it('is the SHA-256 hex of the display', () => {
    expect(displayDigest('true')).toBe('b5bea41b6c623f7c09f1bf24dcae58ebab3c0cdd90ad966bc43a45b44867e12b');
  });
});

describe('normaliseDisplay: numbers a 64-bit float cannot hold as written', () => {
  it.each([
    ['number', '12345678901234567890'],
    ['number', '9007199254740993'],
    ['number', '0.1000000000000000000001'],
    ['number', '1e-400'],
    ['number', '1e400'],
    ['json', '{"n":12345678901234567890}'],
    ['json', '[1, [2, 1e-400]]'],
    ['json', '{"a":1,"a":2}'],
  ] as const)('refuses the %s display %j instead of changing it', (type, input) => {
    expect(() => normaliseDisplay(type, input)).toThrow(DisplayError);
  });

  it.each([
    ['number', '9007199254740992', '9007199254740992'],
    ['number', '1e21', '1e+21'],
    ['number', '5e-324', '5e-324'],
    ['number', '0.30000000000000004', '0.30000000000000004'],
    ['number', '-1.7976931348623157e308', '-1.7976931348623157e+308'],
    ['json', '{"n": 1.0, "m": [1e2, -0]}', '{"n":1,"m":[100,0]}'],
    ['json', '{"a":1,"a":1}', '{"a":1}'],
  ] as const)('stores the %s display %j as %j, the same value', (type, input, display) => {
    const normalised = normaliseDisplay(type, input);
    expect(normalised.display).toBe(display);
    // What the engine and the SDK read back is the value the display names.
    expect(parseStoredDisplay(type, normalised.display)).toEqual(normalised.value);
  });
});
