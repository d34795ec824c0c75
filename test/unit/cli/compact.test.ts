import { describe, expect, it } from 'vitest';
import { compactValue, cutText } from '../../../cli/src/compact.js';

describe('compact values in human output', () => {
  it('writes short values as compact JSON, whole', () => {
    expect(compactValue('New checkout')).toBe('"New checkout"');
    expect(compactValue(null)).toBe('null');
    expect(compactValue(undefined)).toBe('null');
    expect(compactValue(true)).toBe('true');
    expect(compactValue(['user-7', 'user-42'])).toBe('["user-7","user-42"]');
    expect(compactValue({ a: 1, b: [1, 2], c: undefined })).toBe('{"a":1,"b":[1,2]}');
  });

  it('cuts a long string inside its quotes, never inside an escape', () => {
    expect(compactValue('x'.repeat(100), 20)).toBe(`"${'x'.repeat(17)}…"`);
    const quoted = compactValue('a"b'.repeat(20), 20);
    expect(quoted).toBe('"a\\"ba\\"ba\\"ba\\"ba…"');
    expect(quoted.length).toBeLessThanOrEqual(20);
  });

  it('shows as many items of a long list as fit, and how many more there are', () => {
    const segments = Array.from({ length: 100 }, (_, i) => `user-${i}`);
    expect(compactValue(segments, 40)).toBe('["user-0","user-1","user-2",… 97 more]');
    expect(compactValue({ included: segments }, 40)).toBe('{"included":["user-0",… 99 more]}');
  });

  it('cuts plain text to a width', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('0123456789abc', 10)).toBe('012345678…');
  });
});
