/**
 * The number grammar of the ordering comparers (gt, gte, lt, lte).
 *
 * A string is numeric when it matches, in full, `-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?` and its
 * value is finite: an optional minus sign, one or more digits (leading zeros allowed), an optional
 * fraction with at least one digit, an optional exponent. No whitespace, no plus sign, no leading
 * or trailing dot, no hexadecimal, no Infinity/NaN. Its value is the nearest IEEE-754 double.
 */

/** The numeric value of `s`, or NaN when `s` is not numeric. */
export function parseNumeric(s: string): number {
  const n = s.length;
  let i = 0;
  if (i < n && s.charCodeAt(i) === 45 /* - */) i++;
  const intStart = i;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  if (i === intStart) return NaN;
  if (i < n && s.charCodeAt(i) === 46 /* . */) {
    i++;
    const fracStart = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i === fracStart) return NaN;
  }
  if (i < n) {
    const e = s.charCodeAt(i);
    if (e !== 101 /* e */ && e !== 69 /* E */) return NaN;
    i++;
    if (i < n) {
      const sign = s.charCodeAt(i);
      if (sign === 43 /* + */ || sign === 45 /* - */) i++;
    }
    const expStart = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i === expStart || i !== n) return NaN;
  }
  const value = Number(s);
  return Number.isFinite(value) ? value : NaN;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
