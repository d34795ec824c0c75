import crypto, { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type SecretPrefix = 'srv_' | 'mob_' | 'cli_' | 'pat_' | 'mgt_' | 'ses_';

/** A new secret: prefix followed by 40 random base62 characters (at least 32 make guessing hopeless). */
export function generateSecret(prefix: SecretPrefix, length = 40): string {
  let out = prefix;
  // Rejection sampling keeps every base62 character equally likely.
  while (out.length < prefix.length + length) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && out.length < prefix.length + length) out += base62[byte % 62];
    }
  }
  return out;
}

/**
 * Only this digest (SHA-256, hex) is ever stored. Computed for every public API request, so the
 * one-shot crypto.hash (Node 20.12+, about a third of a Hash object's cost) is used when present.
 */
export const digestSecret: (secret: string) => string =
  typeof crypto.hash === 'function'
    ? (secret) => crypto.hash('sha256', secret, 'hex')
    : (secret) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Whether two texts are equal, in time that depends on their length only (a secret's length is
 * public: its format fixes it). For comparing a secret with one held in memory, where digesting
 * both would cost more than the comparison.
 */
export function textsEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** What lists show instead of a secret: its prefix and last four characters. */
export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}...${secret.slice(-4)}`;
}

const secretShape = /^(srv|mob|cli|pat|mgt)_[0-9A-Za-z]{32,200}$/;

/** Cheap syntactic check before any lookup, so junk never reaches the database. */
export function looksLikeSecret(value: string, prefixes: readonly SecretPrefix[]): boolean {
  return secretShape.test(value) && prefixes.some((p) => value.startsWith(p));
}
