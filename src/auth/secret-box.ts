import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of secrets Vexil must read back in clear (webhook signing secrets, which an
 * HMAC needs): AES-256-GCM with a random 96-bit nonce, bound to the row it belongs to (the
 * `context`, authenticated but not stored), so a sealed value copied to another row does not open.
 * Sealed form: `v1.<key id>.<nonce>.<ciphertext and tag>`, base64url; the key id names the key.
 */
export interface SecretKey {
  id: string;
  material: Buffer;
}

export const secretKeyBytes = 32;

/** A key and its id (the first 16 hex digits of a SHA-256 of the key: names it, reveals nothing). */
export function secretKey(material: Buffer): SecretKey {
  if (material.length !== secretKeyBytes) throw new Error(`A secret key is ${secretKeyBytes} bytes.`);
  return { id: createHash('sha256').update('vexil secret key\0').update(material).digest('hex').slice(0, 16), material };
}

export function generateSecretKeyMaterial(): Buffer {
  return randomBytes(secretKeyBytes);
}

/**
 * A key as an operator writes it: 64 hex digits, or base64 (standard or URL-safe) of 32 bytes
 * (`openssl rand -base64 32`). Undefined when it is neither; the caller names the setting, and
 * never repeats the value.
 */
export function parseSecretKeyMaterial(raw: string): Buffer | undefined {
  const text = raw.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return undefined;
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === secretKeyBytes ? bytes : undefined;
}

export class SecretKeyMissingError extends Error {
  constructor(readonly keyId: string) {
    super(`The key ${keyId} that sealed this secret is not configured (VEXIL_SECRET_KEY, VEXIL_SECRET_KEY_PREVIOUS).`);
  }
}

export function sealSecret(key: SecretKey, plaintext: string, context: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.material, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return ['v1', key.id, nonce.toString('base64url'), body.toString('base64url')].join('.');
}

/** The id of the key that sealed `sealed`, or undefined when it is not a sealed value. */
export function sealedWith(sealed: string): string | undefined {
  const parts = sealed.split('.');
  return parts.length === 4 && parts[0] === 'v1' ? parts[1] : undefined;
}

/** Opens a sealed secret with whichever of `keys` sealed it; throws when none did or it was altered. */
export function openSecret(keys: ReadonlyMap<string, SecretKey>, sealed: string, context: string): string {
  const [version, keyId, nonce, body] = sealed.split('.');
  if (version !== 'v1' || !keyId || !nonce || !body) throw new Error('Not a sealed secret.');
  const key = keys.get(keyId);
  if (!key) throw new SecretKeyMissingError(keyId);
  const bytes = Buffer.from(body, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key.material, Buffer.from(nonce, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
}
