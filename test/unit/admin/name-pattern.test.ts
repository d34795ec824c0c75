import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { NAME_PATTERN } from '../../../src/http/openapi/name-pattern.js';
import { TextRules } from '../../../src/features/shared/text-rules.js';

const management = parse(readFileSync(new URL('../../../specs/management.yaml', import.meta.url), 'utf8'));

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

  it('accepts exactly the names the server accepts (so schema-valid names are never refused)', () => {
    const pattern = new RegExp(NAME_PATTERN, 'u');
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
