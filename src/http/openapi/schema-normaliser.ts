/**
 * OpenAPI 3.0 schemas are almost JSON Schema; these rewrites close the gap for Ajv:
 * `nullable` without `type` (Ajv refuses it) and `nullable` with `enum` (null must be listed).
 * Idempotent and in place, so schemas shared by dereferencing are safe to visit twice.
 */
export function normaliseSchema(schema: unknown, seen = new WeakSet<object>()): void {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const item of schema) normaliseSchema(item, seen);
    return;
  }
  const node = schema as Record<string, unknown>;
  if (node.nullable === true) {
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
    if (node.type === undefined) {
      delete node.nullable;
      for (const combiner of ['allOf', 'oneOf', 'anyOf'] as const) {
        if (Array.isArray(node[combiner])) {
          // `{nullable, allOf: [X]}` means "X or null".
          const inner = { [combiner]: node[combiner] };
          delete node[combiner];
          node.anyOf = [inner, { type: 'null' }];
          break;
        }
      }
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key === 'enum' || key === 'default') continue;
    normaliseSchema(value, seen);
  }
}
