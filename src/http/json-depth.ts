/**
 * Deepest nesting of arrays and objects any JSON input may have (bodies, the context and
 * default-value headers, the `context` query parameter). Checked on the text before it is
 * parsed, so a document of thousands of nested arrays never reaches a recursive reader.
 */
export const MAX_JSON_INPUT_DEPTH = 64;

/** Whether a JSON text nests `[`/`{` deeper than `max`, brackets inside strings ignored. */
export function exceedsJsonDepth(text: string, max = MAX_JSON_INPUT_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // A string is skipped whole with indexOf (most of a JSON text is strings): its end is the
      // next quote not escaped, that is, preceded by an even number of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false;
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** Whether the character at `at` follows an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let j = at - 1; j >= 0 && text.charCodeAt(j) === 0x5c; j--) backslashes++;
  return backslashes % 2 === 1;
}
