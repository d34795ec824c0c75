/**
 * Versions of the semver comparers (semver_eq, semver_lt, semver_gt, semver_lte, semver_gte).
 *
 * A version is a Semantic Versioning 2.0.0 string, `MAJOR.MINOR.PATCH`, optionally followed by
 * `-` and a pre-release (dot-separated identifiers of `[0-9A-Za-z-]`, numeric ones without
 * leading zeros) and `+` and build metadata (dot-separated identifiers of `[0-9A-Za-z-]`). One
 * leading lowercase `v` is accepted (`v1.2.3` is `1.2.3`), since app versions are often written
 * so. Nothing else is: no white space, no `=`, no missing MINOR or PATCH, at most 256 characters.
 *
 * Precedence is SemVer's: MAJOR, MINOR, PATCH numerically (any number of digits); a version with
 * a pre-release is lower than the same version without; pre-releases compare identifier by
 * identifier (numeric ones numerically and below alphanumeric ones, which compare by ASCII); a
 * shorter list of equal identifiers is lower. Build metadata is ignored: `1.0.0+a` equals `1.0.0+b`.
 */

export const VERSION_MAX_LENGTH = 256;

export interface Version {
  /** MAJOR, MINOR, PATCH as digit strings without leading zeros (compared by length, then text). */
  readonly core: readonly [string, string, string];
  /** Pre-release identifiers; empty when there is none. */
  readonly pre: readonly string[];
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isIdentifierChar(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45;
}

function isNumericIdentifier(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (!isDigit(s.charCodeAt(i))) return false;
  }
  return true;
}

/** A numeric identifier: digits, no leading zero unless it is `0`. */
function isNumber(s: string): boolean {
  return s.length > 0 && isNumericIdentifier(s) && (s.length === 1 || s.charCodeAt(0) !== 48);
}

function identifiers(s: string, numericWithoutLeadingZero: boolean): string[] | null {
  const parts = s.split('.');
  for (const p of parts) {
    if (p.length === 0) return null;
    for (let i = 0; i < p.length; i++) {
      if (!isIdentifierChar(p.charCodeAt(i))) return null;
    }
    if (numericWithoutLeadingZero && isNumericIdentifier(p) && !isNumber(p)) return null;
  }
  return parts;
}

/** The version `s` denotes, or null when `s` is not a version. */
export function parseVersion(s: string): Version | null {
  if (s.length === 0 || s.length > VERSION_MAX_LENGTH) return null;
  const text = s.charCodeAt(0) === 118 /* v */ ? s.slice(1) : s;
  const plus = text.indexOf('+');
  const withoutBuild = plus === -1 ? text : text.slice(0, plus);
  if (plus !== -1 && identifiers(text.slice(plus + 1), false) === null) return null;
  const dash = withoutBuild.indexOf('-');
  const coreText = dash === -1 ? withoutBuild : withoutBuild.slice(0, dash);
  let pre: string[] = [];
  if (dash !== -1) {
    const parsed = identifiers(withoutBuild.slice(dash + 1), true);
    if (parsed === null) return null;
    pre = parsed;
  }
  const core = coreText.split('.');
  if (core.length !== 3 || !core.every(isNumber)) return null;
  return { core: core as [string, string, string], pre };
}

function compareNumbers(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIdentifiers(a: string, b: string): number {
  const an = isNumericIdentifier(a);
  const bn = isNumericIdentifier(b);
  if (an && bn) return compareNumbers(a, b);
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SemVer precedence: negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    const c = compareNumbers(a.core[i] as string, b.core[i] as string);
    if (c !== 0) return c;
  }
  const ap = a.pre;
  const bp = b.pre;
  if (ap.length === 0 || bp.length === 0) return bp.length - ap.length === 0 ? 0 : ap.length === 0 ? 1 : -1;
  const n = Math.min(ap.length, bp.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(ap[i] as string, bp[i] as string);
    if (c !== 0) return c;
  }
  return ap.length === bp.length ? 0 : ap.length < bp.length ? -1 : 1;
}
