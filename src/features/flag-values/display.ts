import { createHash } from 'node:crypto';
import type { FlagType } from '../flags/store-types.js';

/** Largest display, in UTF-8 bytes of its normalised form (SPEC.md section 8: 64 KB). */
export const MAX_DISPLAY_BYTES = 65_536;
/** Deepest nesting of arrays and objects in a json value (SPEC.md section 8). */
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
      const n = Number(input);
      if (!Number.isFinite(n)) throw new DisplayError('A number flag value must be a finite number.');
      // -0 and 0 are one value; JSON.stringify gives the shortest round-tripping form.
      value = Object.is(n, -0) ? 0 : n;
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
      try {
        value = JSON.parse(input) as JsonValue;
      } catch {
        throw new DisplayError('A json flag value must be a valid JSON document.');
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
