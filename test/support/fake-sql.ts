import { expect } from 'vitest';

/**
 * For fake connections in unit tests: the rows a multi-row `INSERT INTO table (columns) VALUES
 * (?, ...), ...` text and its bindings write, as objects keyed by column.
 */
export function decodeInsert(table: string, sql: string, values: readonly unknown[]): Array<Record<string, unknown>> {
  const match = new RegExp(`^INSERT INTO \`${table}\` \\((.+?)\\) VALUES `).exec(sql);
  if (!match) throw new Error(`unexpected SQL: ${sql}`);
  const columns = (match[1] as string).split(', ').map((c) => c.replace(/`/g, ''));
  const rows = (sql.match(/\(\?/g) ?? []).length;
  expect(values.length).toBe(rows * columns.length);
  return Array.from({ length: rows }, (_, r) => Object.fromEntries(columns.map((c, i) => [c, values[r * columns.length + i]])));
}
