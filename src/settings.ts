import { StartupError } from './startup-error.js';

/**
 * Parsing of single settings (environment variables). A value that is set but not valid stops
 * the start with a SettingError naming the variable, rather than meaning something else silently.
 */
export class SettingError extends StartupError {}

type Env = NodeJS.ProcessEnv;

const present = (raw: string | undefined): raw is string => raw !== undefined && raw !== '';

export function integerSetting(env: Env, name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
  const raw = env[name];
  if (!present(raw)) return fallback;
  const min = range.min ?? 0;
  const value = Number(raw.trim());
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min || (range.max !== undefined && value > range.max)) {
    const bounds = range.max === undefined ? `an integer of at least ${min}` : `an integer from ${min} to ${range.max}`;
    throw new SettingError(`${name} must be ${bounds}, got "${raw}"`);
  }
  return value;
}

/** true or 1, false or 0; anything else ("yes", "on", a typo) is refused rather than guessed. */
export function booleanSetting(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (!present(raw)) return fallback;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new SettingError(`${name} must be true or false (or 1 or 0), got "${raw}"`);
}

export function choiceSetting<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = env[name];
  if (!present(raw)) return fallback;
  const value = raw.trim().toLowerCase();
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new SettingError(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
}

/** A URL whose scheme is one of `schemes` (the value itself is never repeated: it may hold a password). */
export function urlSetting(env: Env, name: string, schemes: readonly string[]): string | undefined {
  const raw = env[name];
  if (!present(raw)) return undefined;
  let scheme: string | undefined;
  try {
    scheme = new URL(raw).protocol.replace(/:$/, '');
  } catch {
    scheme = undefined;
  }
  if (scheme === undefined || !schemes.includes(scheme)) {
    throw new SettingError(`${name} must be a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`);
  }
  return raw;
}

/** Free text limited to printable characters without spaces (names, prefixes). */
export function textSetting(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[\x21-\x7e]{1,100}$/.test(raw))
    throw new SettingError(`${name} must be 1 to 100 printable characters without spaces, got "${raw}"`);
  return raw;
}
