import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NAME_PATTERN } from '../../../src/http/openapi/name-pattern.js';
import { TextRules } from '../../../src/features/shared/text-rules.js';

const management = parse(readFileSync(new URL('../../../specs/management.yaml', import.meta.url), 'utf8'));
const publicApi = parse(readFileSync(new URL('../../../specs/public.yaml', import.meta.url), 'utf8'));

/** Every `pattern` keyword of a document, with where it is. */
function patterns(node: unknown, at: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(node)) node.forEach((item, i) => patterns(item, `${at}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') out.push([`${at}/pattern`, value]);
      else patterns(value, `${at}/${key}`, out);
    }
  }
  return out;
}

/** Every `name` property of a request-body schema that the name rules (TextRules) apply to. */
function nameFields(): Array<[string, { pattern?: string }]> {
  const out: Array<[string, { pattern?: string }]> = [];
  for (const [schemaName, schema] of Object.entries<any>(management.components.schemas)) {
    const name = schema?.properties?.name;
    if (name?.type === 'string' && String(name.description ?? '').includes('Not blank')) out.push([schemaName, name]);
  }
  return out;
}

function serverAccepts(text: string): boolean {
  try {
    new TextRules().name('name', text).check();
    return true;
  } catch {
    return false;
  }
}

describe('the name pattern of the management document', () => {
  it('is given to every name field of a request body', () => {
    const fields = nameFields();
    expect(fields.length).toBeGreaterThanOrEqual(9);
    for (const [schemaName, field] of fields) expect(field.pattern, schemaName).toBe(NAME_PATTERN);
  });

  it('names no line separator (U+2028, U+2029), written or escaped, so generators that copy a pattern into a regular-expression literal keep it valid', () => {
    const found = [...patterns(management, 'management'), ...patterns(publicApi, 'public')].filter(([, pattern]) =>
      /[\u2028\u2029]|\\u202[89]/i.test(pattern),
    );
    expect(found.map(([at]) => at)).toEqual([]);
  });

  it.each([
    ['with the u flag (Ajv)', 'u'],
    ['without flags (a regular-expression literal in a generated client)', ''],
  ])('accepts exactly the names the server accepts (so schema-valid names are never refused), %s', (_, flags) => {
    const pattern = new RegExp(NAME_PATTERN, flags);
    const mismatches: string[] = [];
    for (let code = 0; code < 0x10000; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const ch = String.fromCharCode(code);
      for (const text of [ch, `a${ch}`, `${ch} `, `${ch}${ch}`]) {
        if (pattern.test(text) !== serverAccepts(text)) mismatches.push(JSON.stringify(text));
      }
    }
    expect(mismatches).toEqual([]);
  });
});
