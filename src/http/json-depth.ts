/**
 * Deepest nesting of arrays and objects any JSON input may have (bodies, the context and
 * default-value headers, the `context` query parameter). Checked on the text before it is
 * parsed, so a document of thousands of nested arrays never reaches a recursive reader.
 */
export const MAX_JSON_INPUT_DEPTH = 64;

/** Whether a JSON text nests `[`/`{` deeper than `max`, brackets inside strings ignored. */
export function exceedsJsonDepth(text: string, max = MAX_JSON_INPUT_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
