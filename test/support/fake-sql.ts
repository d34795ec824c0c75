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

/**
 * The public audit trail's statements as a fake connection sees them: the parts upsert (kept
 * by id) and the requests INSERT, whose rows come back joined with their parts the way the view
 * `public_audit_entries` reads them.
 */
export class FakePublicAuditTables {
  readonly parts = new Map<string, Record<string, unknown>>();
  /** Upserts written, each as the number of parts it held. */
  readonly upserts: number[] = [];

  /** Takes one statement; the joined rows of a requests INSERT, undefined for the parts upsert. */
  run(sql: string, values: readonly unknown[]): Array<Record<string, unknown>> | undefined {
    if (sql.startsWith('INSERT INTO `public_audit_parts`')) {
      const parts = decodeInsert('public_audit_parts', sql, values);
      for (const part of parts) this.parts.set(part.id as string, part);
      this.upserts.push(parts.length);
      return undefined;
    }
    return decodeInsert('public_audit_requests', sql, values).map(({ ulid, created_at, count, part_id }) => {
      const part = this.parts.get(part_id as string);
      if (!part) throw new Error(`request ${String(ulid)} names part ${String(part_id)}, not written before it`);
      const { id: _id, last_seen_at: _seen, ...shared } = part;
      return { ulid, created_at, ...shared, count };
    });
  }
}
