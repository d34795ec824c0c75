import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost parameters; they are stored with each hash. */
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

/** 64 MiB of memory per hash (N=2^16, r=8): memory-hard, about 100 ms of CPU. */
export const defaultScryptParameters: ScryptParameters = { N: 65_536, r: 8, p: 1 };
const keyLength = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64): the parameters travel with the hash, so they can grow later. */
export async function hashPassword(password: string, parameters: ScryptParameters = defaultScryptParameters): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, parameters);
  return ['scrypt', parameters.N, parameters.r, parameters.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * A hash no password matches, with the given cost: checked when the account does not exist, so
 * that the answer takes as long as for one that does.
 */
export function unmatchableHash(parameters: ScryptParameters): string {
  return ['scrypt', parameters.N, parameters.r, parameters.p, 'AAAAAAAAAAAAAAAAAAAAAA==', 'AAAA'].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A password a person can type once: 20 letters and digits. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** When a temporary password set now stops working. */
export function temporaryPasswordUntil(now: Date, days: number): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString();
}
