declare const encodes: unique symbol;

/**
 * JSON text a handler writes itself (the evaluated flags, built from cached pieces rather than
 * with JSON.stringify), marked with the body it encodes so the handler maps can check that body's
 * shape against the operation's responses like any other.
 */
export type JsonText<Body> = string & { readonly [encodes]: Body };

/** Marks `text` as the JSON of a `Body`: only for text built to that shape (its tests compare it with JSON.stringify). */
export function jsonText<Body>(text: string): JsonText<Body> {
  return text as JsonText<Body>;
}
