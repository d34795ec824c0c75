import crypto from 'node:crypto';
import { publicAuditColumns } from './audit-columns.js';

/**
 * The public audit trail is stored in two tables (migration 0020): `public_audit_parts` holds
 * what many requests share (the key, environment, request line, action, subject and outcome) once,
 * and `public_audit_requests` one narrow row per request (ulid, time, count, part id). The view
 * `public_audit_entries` joins them back into the rows earlier releases stored.
 */

/** An entry's own columns: the rest belong to its part. */
export const requestColumns = ['ulid', 'created_at', 'count'] as const;

/** The columns of a part, in the order every part's values are held (the id is computed over them in this order). */
export const partColumns = publicAuditColumns.filter((column) => !(requestColumns as readonly string[]).includes(column));

/** What is written per request: its own columns and its part's id. */
export const requestRowColumns = [...requestColumns, 'part_id'] as const;

/** What is written per part: its id, when a request last used it (retention), and its values. */
export const partRowColumns = ['id', 'last_seen_at', ...partColumns] as const;

export type PartValue = string | number | null;

/**
 * A part's id: the first 128 bits of the SHA-256 of its values, in hex. Computed where the entry
 * is buffered, by any instance, without asking the database: equal values give the same id, so
 * writers never race for one.
 */
export function publicAuditPartId(values: readonly PartValue[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 32);
}
