import { FieldErrorList, ValidationError, type ErrorCode } from '../../http/errors.js';

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Control characters other than tab, newline and carriage return have no place in a name.
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Rules for text fields Ajv cannot express: valid Unicode (no lone surrogates, which the
 * databases would silently replace), no control characters in names, names not blank.
 */
export class TextRules {
  private readonly errors = new FieldErrorList();

  name(field: string, value: string | undefined): this {
    if (value === undefined) return this;
    if (value.trim() === '') this.add(field, `The ${field} field must not be blank.`);
    else if (controlCharacter.test(value)) this.add(field, `The ${field} field must not contain control characters.`);
    else this.text(field, value);
    return this;
  }

  text(field: string, value: string | null | undefined): this {
    if (typeof value === 'string' && loneSurrogate.test(value)) {
      this.add(field, `The ${field} field must be valid Unicode text.`);
    }
    return this;
  }

  add(field: string, message: string, code?: ErrorCode): this {
    this.errors.add(field, message, code);
    return this;
  }

  /** Throws the collected errors as one field-keyed 422. */
  check(): void {
    this.errors.check();
  }
}

/** `expires_at` of a new token: absent or null never expires, otherwise it must lie ahead. */
export function futureExpiry(field: string, value: string | null | undefined, now: Date): string | null {
  if (value === undefined || value === null) return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw ValidationError.field(field, `The ${field} field must be a date-time.`);
  if (time <= now.getTime()) {
    throw ValidationError.field(field, `The ${field} field must be a date-time in the future.`, 'date_not_in_future');
  }
  return new Date(time).toISOString();
}
