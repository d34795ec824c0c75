import { describe, expect, it } from 'vitest';
import {
  compareInstants,
  compareVersions,
  compileRegex,
  parseInstant,
  parseVersion,
  PATTERN_MAX_LENGTH,
  typedValueProblem,
} from '../../../src/engine/index.js';

describe('versions (SemVer 2.0.0)', () => {
  const order = (a: string, b: string) => Math.sign(compareVersions(parseVersion(a)!, parseVersion(b)!));

  it('orders the precedence example of the SemVer document', () => {
    const list = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'];
    for (let i = 0; i + 1 < list.length; i++) expect(order(list[i]!, list[i + 1]!), `${list[i]} < ${list[i + 1]}`).toBe(-1);
    expect(order('1.0.0', '1.0.0-rc.1')).toBe(1);
  });

  it('compares numbers of any length numerically and ignores build metadata', () => {
    expect(order('1.10.0', '1.9.0')).toBe(1);
    expect(order('0.0.123456789012345678901234567890', '0.0.123456789012345678901234567891')).toBe(-1);
    expect(order('1.0.0+20130313144700', '1.0.0+exp.sha.5114f85')).toBe(0);
    expect(order('v1.2.3', '1.2.3')).toBe(0);
  });

  it('refuses what is not a version', () => {
    for (const s of [
      '',
      '1',
      '1.2',
      '1.2.3.4',
      '01.2.3',
      '1.02.3',
      '1.2.3-',
      '1.2.3-01',
      '1.2.3+',
      '1.2.3-a..b',
      'V1.2.3',
      'vv1.2.3',
      ' 1.2.3',
      '1.2.3 ',
      '=1.2.3',
      '1.2.3-ä',
      'x'.repeat(257),
    ]) {
      expect(parseVersion(s), JSON.stringify(s)).toBeNull();
    }
    expect(parseVersion('1.2.3-0')).not.toBeNull();
    expect(parseVersion('1.2.3-0a.00a')).not.toBeNull(); // alphanumeric identifiers may start with 0
  });
});

describe('date-times with an offset', () => {
  it('reads RFC 3339 date-times as the instant Date reads', () => {
    for (const s of [
      '1970-01-01T00:00:00Z',
      '2026-03-01T12:34:56.789+02:00',
      '2024-02-29T23:59:59-11:30',
      '1900-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
    ]) {
      const instant = parseInstant(s)!;
      expect(instant.seconds * 1000 + Math.floor(instant.nanos / 1e6), s).toBe(new Date(s).getTime());
    }
  });

  it('keeps nanoseconds and compares as instants', () => {
    const a = parseInstant('2026-01-01T00:00:00.000000001Z')!;
    const b = parseInstant('2026-01-01T01:00:00.000000002+01:00')!;
    expect(a.nanos).toBe(1);
    expect(compareInstants(a, b)).toBeLessThan(0);
    expect(compareInstants(parseInstant('2026-01-01T01:00:00+01:00')!, parseInstant('2026-01-01T00:00:00Z')!)).toBe(0);
  });

  it('refuses other forms', () => {
    for (const s of [
      '2026-01-01',
      '2026-01-01T00:00:00',
      '2026-01-01T00:00Z',
      '2026-01-01 00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2100-02-29T00:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:60Z',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00.Z',
      '2026-01-01T00:00:00.1234567890Z',
      '2026-01-01T00:00:00+0100',
      '+2026-01-01T00:00:00Z',
    ]) {
      expect(parseInstant(s), s).toBeNull();
    }
    expect(parseInstant('2000-02-29T00:00:00Z')).not.toBeNull();
  });
});

describe('linear-time regular expressions', () => {
  const matches = (pattern: string, input: string) => {
    const compiled = compileRegex(pattern);
    if (!compiled.ok) throw new Error(compiled.reason);
    return compiled.regex.test(input);
  };

  it('agrees with JavaScript on the supported syntax', () => {
    const cases: [string, string][] = [
      ['^abc$', 'abc'],
      ['^abc$', 'abcd'],
      ['b', 'abc'],
      ['^(a|bc)+$', 'abcbca'],
      ['^(a|bc)+$', 'abcb'],
      ['^a{2}$', 'aa'],
      ['^a{2,}$', 'aaaaa'],
      ['^a{2,}$', 'a'],
      ['^a{1,2}b?$', 'aab'],
      ['^[\\d.]+$', '1.2.3'],
      ['^\\S+@\\S+$', 'a@b'],
      ['^\\W$', '-'],
      ['^\\s$', '\u00a0'],
      ['^[^\\d]+$', 'abc'],
      ['^[^\\d]+$', 'a1c'],
      ['^.+$', 'a\nb'],
      ['^\\x41\\u0042$', 'AB'],
      ['^[\\-\\]]+$', '-]-'],
      ['^a*?b$', 'aab'],
      ['^(?:x|y)*z$', 'xyxz'],
      ['^$', ''],
      ['colou?r', 'my color'],
      ['^[a-c][x-z]$', 'by'],
      ['\\.', 'a.b'],
      ['^\\^\\$$', '^$'],
    ];
    for (const [pattern, input] of cases)
      expect(matches(pattern, input), `${pattern} on ${JSON.stringify(input)}`).toBe(new RegExp(pattern, 'u').test(input));
  });

  it('refuses what it cannot run in linear time or does not know, with a reason', () => {
    for (const pattern of [
      '(a)\\1',
      '(?=a)',
      '(?!a)',
      '(?<=a)',
      '(?<n>a)',
      '(?i)a',
      '\\b',
      '\\B',
      '\\p{L}',
      '\\k<n>',
      '(',
      ')',
      '[',
      'a**',
      '+',
      '{1}',
      'a{3,2}',
      'a{1001}',
      '\\',
      '\\q',
      'x'.repeat(PATTERN_MAX_LENGTH + 1),
      '((a{100}){100}){100}',
    ]) {
      const compiled = compileRegex(pattern);
      expect(compiled.ok, pattern).toBe(false);
      if (!compiled.ok) expect(compiled.reason.length).toBeGreaterThan(0);
    }
  });

  it('never stalls: a pattern that makes backtracking engines explode runs on a long input', () => {
    const input = `${'a'.repeat(20_000)}!`;
    for (const pattern of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '(x+x+)+y', '^(a*)*b$']) {
      expect(matches(pattern, input), pattern).toBe(false);
    }
  });
});

describe('typedValueProblem (write-time checks)', () => {
  it('names what the value must be, or null when it is fine', () => {
    expect(typedValueProblem('semver_lt', '1.2.3')).toBeNull();
    expect(typedValueProblem('semver_lt', '1.2')).toMatch(/semantic version/);
    expect(typedValueProblem('after', '2026-01-01T00:00:00Z')).toBeNull();
    expect(typedValueProblem('after', '2026-01-01')).toMatch(/date-time with an offset/);
    expect(typedValueProblem('matches', '^a+$')).toBeNull();
    expect(typedValueProblem('matches', '(a)\\1')).toMatch(/linear time/);
    expect(typedValueProblem('equal', 'anything')).toBeNull();
  });
});
