import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  openSecret,
  parseSecretKeyMaterial,
  sealSecret,
  sealedWith,
  secretKey,
  SecretKeyMissingError,
} from '../../../src/auth/secret-box.js';
import { loadConfig } from '../../../src/config.js';
import { SettingError } from '../../../src/settings.js';

describe('sealed secrets', () => {
  const key = secretKey(randomBytes(32));
  const ring = new Map([[key.id, key]]);

  it('open with the key that sealed them, bound to their context', () => {
    const sealed = sealSecret(key, 'whsec_abc', 'webhook:whk_1');
    expect(sealed).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('abc');
    expect(sealedWith(sealed)).toBe(key.id);
    expect(openSecret(ring, sealed, 'webhook:whk_1')).toBe('whsec_abc');
    // A fresh nonce each time.
    expect(sealSecret(key, 'whsec_abc', 'webhook:whk_1')).not.toBe(sealed);
    // Moved to another row, or altered: refused.
    expect(() => openSecret(ring, sealed, 'webhook:whk_2')).toThrow();
    // One bit of the ciphertext flipped (a changed last character may only touch base64's padding bits).
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0]! ^= 1;
    const altered = [...parts.slice(0, 3), body.toString('base64url')].join('.');
    expect(() => openSecret(ring, altered, 'webhook:whk_1')).toThrow();
  });

  it('name the key they need when it is missing', () => {
    const other = secretKey(randomBytes(32));
    const sealed = sealSecret(other, 'whsec_abc', 'x');
    expect(() => openSecret(ring, sealed, 'x')).toThrow(SecretKeyMissingError);
    expect(() => openSecret(ring, sealed, 'x')).toThrow(other.id);
  });

  it('take keys as 64 hex digits or base64 of 32 bytes', () => {
    const bytes = randomBytes(32);
    expect(parseSecretKeyMaterial(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretKeyMaterial(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretKeyMaterial(bytes.toString('base64url'))).toEqual(bytes);
    expect(parseSecretKeyMaterial(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(parseSecretKeyMaterial('correct horse battery staple')).toBeUndefined();
  });

  it('settings: VEXIL_SECRET_KEY and VEXIL_SECRET_KEY_PREVIOUS, refused without repeating the value', () => {
    const current = randomBytes(32);
    const previous = [randomBytes(32), randomBytes(32)];
    const config = loadConfig({
      VEXIL_SECRET_KEY: current.toString('base64'),
      VEXIL_SECRET_KEY_PREVIOUS: previous.map((k) => k.toString('hex')).join(','),
    });
    expect(config.secretKeys).toEqual({ current, previous });
    expect(loadConfig({}).secretKeys).toEqual({ current: undefined, previous: [] });
    const bad = 'not-a-key-but-maybe-a-password';
    expect(() => loadConfig({ VEXIL_SECRET_KEY: bad })).toThrow(SettingError);
    try {
      loadConfig({ VEXIL_SECRET_KEY_PREVIOUS: `${current.toString('hex')},${bad}` });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe(
        'VEXIL_SECRET_KEY_PREVIOUS (key 2) must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)',
      );
    }
  });
});
