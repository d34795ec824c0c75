/**
 * The `pattern` the management document gives every name field: the name rules of
 * features/shared/text-rules.ts (TextRules: not blank as String.prototype.trim sees it, no
 * control characters but tab, line feed and carriage return), so schema-valid names are never
 * refused. test/unit/admin/name-pattern.test.ts keeps the document, this and TextRules in step.
 */
export const NAME_PATTERN =
  '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*' +
  '[^\\u0000-\\u0020\\u007F\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]' +
  '[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';

/** What a refused name is told, rather than the pattern itself. */
export const NAME_PATTERN_MESSAGE = 'must not be blank or contain control characters';
