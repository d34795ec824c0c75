import type { Db } from '../storage/db.js';
import { execute, insertText, type StatementOptions } from '../storage/prepared-sql.js';
import { managementAuditColumns } from './audit-columns.js';

/**
 * The SQL of the management audit writer (audit-trail.ts) and its backlog (audit-backlog.ts):
 * INSERTs into audit_entries, prepared through storage/prepared-sql.ts, since every management
 * request writes one.
 */

/** One entry's values, in the order of managementAuditColumns. */
export type AuditValues = Array<string | number | null>;

/** Entries per INSERT of several (21 bindings each: far below every database's limit). */
export const auditEntriesPerInsert = 50;

/** Inserts one entry: a change's, in the change's transaction. */
export function insertAuditEntry(db: Db, values: AuditValues): Promise<void> {
  return execute(db, insertText('audit_entries', managementAuditColumns, 1), values);
}

/**
 * Inserts up to auditEntriesPerInsert entries in one statement. With `lockWaitMs: 0` a SQLite
 * write lock held elsewhere is tried once (DatabaseLockedError) instead of waited for.
 */
export function insertAuditEntries(db: Db, rows: readonly AuditValues[], options?: StatementOptions): Promise<void> {
  return execute(db, insertText('audit_entries', managementAuditColumns, rows.length), rows.flat(), options);
}
