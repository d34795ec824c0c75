/**
 * The `pattern` the management document gives every name field: the name rules of
 * features/shared/text-rules.ts (TextRules: not blank as String.prototype.trim sees it, no
 * control characters but tab, line feed and carriage return), so schema-valid names are never
 * refused. test/unit/admin/name-pattern.test.ts keeps the document, this and TextRules in step.
 * The one required character is "not `\s`" (ECMAScript's `\s` is exactly what trim removes), not a
 * class that names U+2028 and U+2029: some generators (hey-api's zod plugin) copy those as raw
 * line breaks into a regular-expression literal, which then does not compile. U+FEFF is named too
 * for regex engines whose `\s` leaves it out (Python's).
 */
export const NAME_PATTERN =
  '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*' +
  '[^\\s\\u0000-\\u001F\\u007F\\uFEFF]' +
  '[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';

/** What a refused name is told, rather than the pattern itself. */
export const NAME_PATTERN_MESSAGE = 'must not be blank or contain control characters';
