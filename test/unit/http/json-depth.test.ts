import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from '../../../src/http/json-depth.js';

describe('exceedsJsonDepth', () => {
  it('counts nesting of arrays and objects', () => {
    expect(exceedsJsonDepth('[[[1]]]', 3)).toBe(false);
    expect(exceedsJsonDepth('[[[[1]]]]', 3)).toBe(true);
    expect(exceedsJsonDepth('{"a":{"b":[{}]}}', 3)).toBe(true);
    expect(exceedsJsonDepth('{"a":{"b":[]},"c":[[]]}', 3)).toBe(false);
    expect(exceedsJsonDepth(`${'['.repeat(65)}${']'.repeat(65)}`)).toBe(true);
    expect(exceedsJsonDepth(`${'['.repeat(64)}${']'.repeat(64)}`)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth('["[[[[[[", "{{{{"]', 2)).toBe(false);
    expect(exceedsJsonDepth('["a\\"[[[[[[", "b"]', 2)).toBe(false);
    // An escaped backslash ends before the quote: the quote closes the string.
    expect(exceedsJsonDepth('["a\\\\", [[[1]]]]', 3)).toBe(true);
    expect(exceedsJsonDepth('["a\\\\\\"[[[[", 1]', 2)).toBe(false);
    expect(exceedsJsonDepth('{"k":"v"}', 0)).toBe(true);
  });

  it('treats an unterminated string as the end of the text', () => {
    expect(exceedsJsonDepth('[["abc', 2)).toBe(false);
    expect(exceedsJsonDepth('[[["abc', 2)).toBe(true);
  });
});
