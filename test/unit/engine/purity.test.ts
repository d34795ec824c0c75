import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const engineDir = fileURLToPath(new URL('../../../src/engine/', import.meta.url));
const files = readdirSync(engineDir).filter((f) => f.endsWith('.ts'));

/** Every module specifier imported or re-exported by a source file. */
function specifiers(source: string): string[] {
  const out: string[] = [];
  const re =
    /(?:\bimport|\bexport)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of source.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4]) as string);
  return out;
}

describe('src/engine is a pure module', () => {
  it('has the expected files', () => {
    for (const f of [
      'types.ts',
      'murmur3.ts',
      'bucket.ts',
      'numeric.ts',
      'context.ts',
      'comparers.ts',
      'snapshot.ts',
      'evaluate.ts',
      'index.ts',
      'semver.ts',
      'instant.ts',
      'linear-regex.ts',
      'regex-syntax.ts',
      'typed-comparers.ts',
    ]) {
      expect(files).toContain(f);
    }
  });

  it.each(files)('%s imports only sibling engine modules with explicit .js extensions', (file) => {
    const source = readFileSync(engineDir + file, 'utf8');
    for (const spec of specifiers(source)) {
      expect(spec, `${file} imports ${spec}`).toMatch(/^\.\/[a-z0-9-]+\.js$/);
    }
  });

  it.each(files)('%s uses no Node or host globals', (file) => {
    const source = readFileSync(engineDir + file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const banned of [
      /\bnode:/,
      /\brequire\s*\(/,
      /\bprocess\./,
      /\bBuffer\b/,
      /\b__dirname\b/,
      /\bglobalThis\b/,
      /\bsetTimeout\b/,
      /\bsetInterval\b/,
      /\bfetch\s*\(/,
      /\bDate\.now\b/,
      /\bMath\.random\b/,
      /\bconsole\./,
      /\bkoa\b/,
      /\bknex\b/,
      /\bcrypto\b/,
    ]) {
      expect(source, `${file} matches ${banned}`).not.toMatch(banned);
    }
  });
});
