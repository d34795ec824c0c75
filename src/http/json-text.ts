declare const encodes: unique symbol;

/**
 * JSON a handler writes itself (the evaluated flags, built from cached pieces rather than with
 * JSON.stringify), as text or as its UTF-8 bytes (`Form`), marked with the body it encodes so the
 * handler maps can check that body's shape against the operation's responses like any other.
 */
export type JsonText<Body, Form extends string | Buffer = string> = Form & { readonly [encodes]: Body };

/** Marks `json` as the JSON of a `Body`: only for JSON built to that shape (its tests compare it with JSON.stringify). */
export function jsonText<Body, Form extends string | Buffer = string>(json: Form): JsonText<Body, Form> {
  return json as JsonText<Body, Form>;
}
