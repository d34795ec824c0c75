import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * What typed generated clients (Go, Java) make of the documents' numbers and enums: every user
 * number is a double (openapi-generator's Go client reads a plain `number` as float32, so
 * 123456789.125 arrived as 123456790), counters kept as 64-bit integers are int64, and the
 * constants of the named enum schemas do not collide (Go puts every constant of a package in one
 * namespace: `NOT_FOUND` of ErrorCode and of AuditResult did not build).
 */
const documents = {
  public: parse(readFileSync(new URL('../../../specs/public.yaml', import.meta.url), 'utf8')),
  management: parse(readFileSync(new URL('../../../specs/management.yaml', import.meta.url), 'utf8')),
};

type Schema = Record<string, unknown>;

/** Every schema object of a document (not its examples), with where it is. */
function schemas(node: unknown, at: string, out: Array<[string, Schema]> = []): Array<[string, Schema]> {
  if (Array.isArray(node)) node.forEach((item, i) => schemas(item, `${at}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    const object = node as Schema;
    if (typeof object.type === 'string') out.push([at, object]);
    for (const [key, value] of Object.entries(object)) {
      if (key !== 'example' && key !== 'examples') schemas(value, `${at}/${key}`, out);
    }
  }
  return out;
}

/** The constant name openapi-generator's Go client gives an enum member (AbstractGoCodegen.toEnumVarName). */
function goConstant(name: string): string {
  const upper = name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
  return upper.replace(/^_/, '').replace(/_$/, '') || 'EMPTY';
}

describe.each(Object.entries(documents))('the %s document for typed clients', (_, document) => {
  it('gives every number format double', () => {
    const numbers = schemas(document, '#').filter(([, schema]) => schema.type === 'number');
    expect(numbers.filter(([, schema]) => schema.format !== 'double').map(([at]) => at)).toEqual([]);
  });

  it('gives every counter it answers (`count`, `..._count`) format int64', () => {
    // UsageReport's count is a request member bounded far below 2^31.
    const counters = schemas(document, '#').filter(
      ([at, schema]) =>
        schema.type === 'integer' && /\/properties\/(\w+_)?count$/.test(at) && !at.startsWith('#/components/schemas/UsageReport/'),
    );
    expect(counters.filter(([, schema]) => schema.format !== 'int64').map(([at]) => at)).toEqual([]);
  });

  it('names the constants of its enum schemas without collisions', () => {
    const owners = new Map<string, string[]>();
    for (const [name, schema] of Object.entries<Schema>(document.components.schemas)) {
      if (!Array.isArray(schema.enum)) continue;
      const names = (schema['x-enum-varnames'] as string[] | undefined) ?? schema.enum.map(String);
      expect(names, `${name}: one x-enum-varnames entry per value`).toHaveLength(schema.enum.length);
      for (const constant of names.map(goConstant)) owners.set(constant, [...(owners.get(constant) ?? []), name]);
    }
    const collisions = [...owners].filter(([, names]) => names.length > 1).map(([constant, names]) => `${constant}: ${names.join(', ')}`);
    expect(collisions).toEqual([]);
  });
});
