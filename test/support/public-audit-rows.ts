import type { Knex } from 'knex';
import { partColumns, publicAuditPartId, type PartValue } from '../../src/audit/public-audit-parts.js';

/**
 * Writes public audit entries given as the rows the view `public_audit_entries` reads (missing
 * optional columns null, count 1) into the tables behind it: each part once, last seen at its
 * newest entry, then one request per entry.
 */
export async function insertPublicAuditRows(knex: Knex, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const parts = new Map<string, Record<string, unknown>>();
  const requests = rows.map((row) => {
    const values = partColumns.map((column) => (row[column] ?? null) as PartValue);
    const id = publicAuditPartId(values);
    const createdAt = row.created_at as string;
    const held = parts.get(id);
    if (!held) parts.set(id, { id, last_seen_at: createdAt, ...Object.fromEntries(partColumns.map((c, i) => [c, values[i]])) });
    else if ((held.last_seen_at as string) < createdAt) held.last_seen_at = createdAt;
    return { ulid: row.ulid, created_at: createdAt, count: row.count ?? 1, part_id: id };
  });
  for (const part of parts.values()) {
    await knex('public_audit_parts').insert(part).onConflict('id').merge(['last_seen_at']);
  }
  if (requests.length > 0) await knex.batchInsert('public_audit_requests', requests, 200);
}
