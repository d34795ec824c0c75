import fs from 'node:fs';
import path from 'node:path';

/**
 * Where SQL may be written (docs/architecture.md, "One feature shape"): a store (`store.ts`, or a
 * file whose name ends in `-store.ts`) or src/storage/. What counts as SQL:
 * - a query built on a database handle: a call of `knex`, `trx`, `db` or `pool` (bare or as a member,
 *   `this.deps.db(`) with a table name;
 * - raw SQL: `.raw(`, or a string that starts a SELECT ... FROM, INSERT INTO, DELETE FROM or UPDATE ... SET
 *   (SQL text is written in capitals, so prose such as "select a value from the list" is not taken for it);
 * - statements run through storage/prepared-sql.ts (`execute`, `selectArrays`, `append`).
 */
export const sqlPatterns: Array<{ kind: string; pattern: RegExp }> = [
  { kind: 'query builder', pattern: /(?<![\w.])(?:\w+\.)*(?:knex|trx|db|pool)\(\s*['"`]/ },
  { kind: 'raw SQL', pattern: /\.raw\(/ },
  { kind: 'SQL text', pattern: /['"`]\s*(?:SELECT\s[^'"`]*\bFROM\b|INSERT\s+INTO\b|DELETE\s+FROM\b|UPDATE\s+`?\w+`?\s+SET\b)/ },
  { kind: 'prepared SQL', pattern: /(?<![\w.])(?:execute|selectArrays|append)\(\s*(?:[\w.]+\s*,|$)/ },
];

/**
 * Files outside stores that run SQL, each with the reason. Keep it short: the way out is a store.
 */
export const sqlAllowed: Record<string, string> = {};

export function isStoreFile(file: string): boolean {
  return file.startsWith('src/storage/') || /(?:^|\/)store\.ts$|-store\.ts$/.test(file);
}

/** Lines of `text` that hold SQL, comments aside. */
export function sqlLines(text: string): Array<{ line: number; kind: string; text: string }> {
  const found: Array<{ line: number; kind: string; text: string }> = [];
  text.split('\n').forEach((line, index) => {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
    for (const { kind, pattern } of sqlPatterns) {
      if (pattern.test(line)) {
        found.push({ line: index + 1, kind, text: code });
        break;
      }
    }
  });
  return found;
}

/** SQL in files of `dir` (relative to `root`) that are neither stores nor allowed. */
export function sqlOutsideStores(root: string, dir: string, allowed: Record<string, string> = sqlAllowed): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const file = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts') && !isStoreFile(file) && !(file in allowed)) {
        for (const hit of sqlLines(fs.readFileSync(path.join(root, file), 'utf8')))
          out.push(`${file}:${hit.line} ${hit.kind}: ${hit.text}`);
      }
    }
  };
  walk(dir);
  return out;
}
