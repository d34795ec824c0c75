import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestParts, entityTag, ifNoneMatchMatches } from '../../../src/runtime/etag.js';

describe('entity tags', () => {
  it('are stable for the same parts and differ for different ones', () => {
    expect(digestParts('a', 'b')).toBe(digestParts('a', 'b'));
    expect(digestParts('a', 'b')).not.toBe(digestParts('ab', ''));
    expect(entityTag('srv', 42, 'abcdef0123456789')).toBe('"srv-42-abcdef01"');
  });

  it('digest each part followed by a NUL with SHA-256, so tags survive upgrades', () => {
    const parts = ['config-digest', 'client', '{"type":"user","identifier":"ä"}', '[]'];
    const hash = createHash('sha256');
    for (const part of parts) hash.update(`${part}\u0000`, 'utf8');
    expect(digestParts(...parts)).toBe(hash.digest('hex').slice(0, 16));
  });

  it('match If-None-Match exactly, weakly, in a list, or by *', () => {
    const etag = '"srv-1-aaaaaaaa"';
    expect(ifNoneMatchMatches(undefined, etag)).toBe(false);
    expect(ifNoneMatchMatches(etag, etag)).toBe(true);
    expect(ifNoneMatchMatches(`W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches(`"x", ${etag}`, etag)).toBe(true);
    expect(ifNoneMatchMatches('"a,b", "c"', '"a,b"')).toBe(true);
    expect(ifNoneMatchMatches('*', etag)).toBe(true);
    expect(ifNoneMatchMatches('"srv-1-bbbbbbbb"', etag)).toBe(false);
    expect(ifNoneMatchMatches('srv-1-aaaaaaaa', etag)).toBe(false);
    expect(ifNoneMatchMatches([`"x"`, etag], etag)).toBe(true);
    expect(ifNoneMatchMatches(`  ${etag} `, etag)).toBe(true);
    expect(ifNoneMatchMatches(' * ', etag)).toBe(true);
    expect(ifNoneMatchMatches('   ', etag)).toBe(false);
    expect(ifNoneMatchMatches('W/"srv-1-bbbbbbbb"', etag)).toBe(false);
  });
});
