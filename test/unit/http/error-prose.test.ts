import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The error bodies the documents' prose and docs/ show carry `code`, as every error body
 * does (ErrorEnvelope and ValidationError require it): a reader copying them must not learn a
 * shape without it.
 */
const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
const texts: Array<[string, string]> = [
  ['specs/public.yaml (info)', parse(read('specs/public.yaml')).info.description as string],
  ['specs/management.yaml (info)', parse(read('specs/management.yaml')).info.description as string],
  ['docs/api.md', read('docs/api.md')],
];

/** The JSON error bodies written in a text: `{"status": "error", ...}` and `{"message": ..., "errors": ...}`. */
function errorBodies(text: string): string[] {
  return [...text.matchAll(/\{"(status": "error"|message": "[^"]*", "errors")[^`\n]*\}/g)].map((m) => m[0]);
}

describe.each(texts)('the error bodies shown in %s', (_, text) => {
  it('carry a code', () => {
    const bodies = errorBodies(text);
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.filter((body) => !body.includes('"code": "'))).toEqual([]);
  });
});

describe('the management document’s error table', () => {
  it('names the code of every status it lists', () => {
    const description = parse(read('specs/management.yaml')).info.description as string;
    const table = description.slice(description.indexOf('## Errors'), description.indexOf('## Idempotency'));
    const rows = table.split('\n').filter((line) => /^\| \d{3} \|/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.filter((row) => !/^\| \d{3} \| [^|]+ \| `[a-z_]+`/.test(row))).toEqual([]);
  });
});
