/** "a, b,c" as ["a", "b", "c"]: how the console's forms take lists of keys and identifiers. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
