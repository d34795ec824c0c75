import { createHash } from 'node:crypto';
import { parse as parseLosslessJson } from 'lossless-json';
import type { FlagType } from '../flags/store-types.js';

/** Largest display, in UTF-8 bytes of its normalised form (64 KB, specs/management.yaml). */
export const MAX_DISPLAY_BYTES = 65_536;
/** Deepest nesting of arrays and objects in a json value (specs/management.yaml). */
export const MAX_JSON_DEPTH = 10;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface NormalisedDisplay {
  /** The stored display: canonical number, compact JSON, or the string as given. */
  display: string;
  /** The typed value the display stands for. */
  value: JsonValue;
  /** SHA-256 hex of `display`: what the per-flag uniqueness index compares. */
  digest: string;
}

/** Why a display does not fit the flag type: the message of the 422 keyed on `display`. */
export class DisplayError extends Error {}

// A JSON number literal: no leading +, no leading zeros, no hex, no NaN/Infinity, no spaces.
const jsonNumber = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * Checks a display against the flag type and brings it to its stored form, so that two displays
 * meaning the same value (`1.50` and `1.5`, JSON differing by whitespace) collide on the digest.
 */
export function normaliseDisplay(type: FlagType, input: string): NormalisedDisplay {
  let display: string;
  let value: JsonValue;
  switch (type) {
    case 'boolean':
      if (input !== 'true' && input !== 'false') throw new DisplayError('A boolean flag value must be "true" or "false".');
      display = input;
      value = input === 'true';
      break;
    case 'number': {
      if (!jsonNumber.test(input)) {
        throw new DisplayError('A number flag value must be a JSON number, e.g. 42, -1.5 or 1e3.');
      }
      value = exactNumber(input, 'A number flag value');
      // -0 and 0 are one value; JSON.stringify gives the shortest round-tripping form.
      display = JSON.stringify(value);
      break;
    }
    case 'string':
      display = input;
      value = input;
      break;
    case 'json': {
      const depth = jsonDepth(input);
      if (depth > MAX_JSON_DEPTH) {
        throw new DisplayError(`A json flag value may nest arrays and objects at most ${MAX_JSON_DEPTH} levels deep.`);
      }
      // Parsed keeping each number's text, so a number a double cannot hold is refused, not rounded.
      try {
        value = parseLosslessJson(input, null, (text) => exactNumber(text, 'A number in a json flag value')) as JsonValue;
      } catch (error) {
        if (error instanceof DisplayError) throw error;
        const duplicate = error instanceof Error && error.message.startsWith('Duplicate key');
        throw new DisplayError(
          duplicate
            ? 'A json flag value may not repeat a member name with different values.'
            : 'A json flag value must be a valid JSON document.',
        );
      }
      display = JSON.stringify(value);
      break;
    }
  }
  if (Buffer.byteLength(display, 'utf8') > MAX_DISPLAY_BYTES) {
    throw new DisplayError(`A flag value may be at most ${MAX_DISPLAY_BYTES} bytes (64 KB) long.`);
  }
  return { display, value, digest: displayDigest(display) };
}

/**
 * The number a JSON number literal denotes, when a 64-bit float holds it as written: its
 * canonical form (the shortest text that reads back as the same double) must denote the same
 * decimal value. `1.50` and `1e3` are fine (`1.5`, `1000`); `12345678901234567890` (would read
 * back as ...7000), `1e400` (infinite) and `1e-400` (zero) are refused: never stored changed.
 */
function exactNumber(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isFinite(n)) {
    throw new DisplayError(`${what} must be within ±1.7976931348623157e308; ${text} is not.`);
  }
  const value = Object.is(n, -0) ? 0 : n;
  const canonical = JSON.stringify(value);
  if (decimalKey(canonical) !== decimalKey(text)) {
    throw new DisplayError(
      `${what} must be exactly representable as a 64-bit float (about 15 significant digits); ${text} would be stored as ${canonical}.`,
    );
  }
  return value;
}

/** One text per decimal value of a JSON number literal: sign, significant digits, exponent. */
function decimalKey(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let exp = BigInt(exponent) - BigInt(fraction.length);
  const trimmed = digits.replace(/0+$/, '');
  exp += BigInt(digits.length - trimmed.length);
  digits = trimmed;
  return `${sign}${digits}e${exp}`;
}

/** The typed value of a stored (already normalised) display. */
export function parseStoredDisplay(type: FlagType, display: string): JsonValue {
  switch (type) {
    case 'boolean':
      return display === 'true';
    case 'number':
      return Number(display);
    case 'string':
      return display;
    case 'json':
      return JSON.parse(display) as JsonValue;
  }
}

export function displayDigest(display: string): string {
  return createHash('sha256').update(display, 'utf8').digest('hex');
}

/**
 * Deepest nesting of `[`/`{` in a JSON text, ignoring brackets inside strings. Measured before
 * parsing so that a megabyte of `[` is refused without recursing through it.
 * A scalar has depth 0, `[]` and `{}` depth 1, `[[1]]` depth 2.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return max;
}
