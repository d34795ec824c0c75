import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseDocument } from '../../../src/http/openapi/document.js';

const yaml = fs.readFileSync('specs/public.yaml', 'utf8');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** What scripts/build-documents.mjs writes, with a document of our choosing. */
const built = (sourceSha256: string, document: unknown) => JSON.stringify({ sourceSha256, document });

describe('reading an OpenAPI document', () => {
  it('parses the YAML when make build has not written the document', () => {
    expect(parseDocument(yaml, undefined)).toEqual(YAML.parse(yaml));
  });

  it('takes the built document when it was parsed from the same YAML', () => {
    const marked = { ...YAML.parse(yaml), 'x-built': true };
    expect(parseDocument(yaml, built(sha256(yaml), marked))).toEqual(marked);
  });

  it('parses the YAML again when it changed after the build', () => {
    const stale = built(sha256(`${yaml}\n# an edit`), { openapi: '3.0.3', paths: {} });
    expect(parseDocument(yaml, stale)).toEqual(YAML.parse(yaml));
  });
});
