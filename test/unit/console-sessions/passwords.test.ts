import { describe, expect, it } from 'vitest';
import {
  defaultScryptParameters,
  hashPassword,
  unmatchableHash,
  verifyPassword,
} from '../../../src/features/console-sessions/passwords.js';

describe('password hashes', () => {
  it('are scrypt with N=2^16, r=8, p=1 by default, the parameters stored with the hash', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$65536\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
  });

  it('verify with the parameters stored in the hash, whatever the current cost', async () => {
    const cheap = await hashPassword('pässwörd', { N: 1024, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    // NFKC: the composed and decomposed spellings are one password.
    expect(await verifyPassword('pa\u0308sswo\u0308rd', cheap)).toBe(true);
    expect(await verifyPassword('password', cheap)).toBe(false);
  });

  it('the stand-in for a missing account costs the same and matches nothing', async () => {
    expect(unmatchableHash(defaultScryptParameters)).toBe('scrypt$65536$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA');
    expect(await verifyPassword('', unmatchableHash({ N: 1024, r: 8, p: 1 }))).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'bcrypt$10$x$y')).toBe(false);
  });
});
