import type { Knex } from 'knex';
import { append, insertText, type AppendStatement } from '../storage/prepared-sql.js';
import { ENTRY_STRIDE, type EntrySlots, type SharedPart } from './public-audit-entries.js';
import { partColumns, partRowColumns, publicAuditPartId, requestRowColumns, type PartValue } from './public-audit-parts.js';

/**
 * The SQL of the public audit trail's writer: a batch of buffered entries as the upsert of their
 * shared parts and the INSERT of their requests (public-audit-parts.ts), and the flags named by key.
 */
export class KnexPublicAuditStore {
  constructor(private readonly knex: Knex) {}

  /** Runs the statements of one batch (statements()) as one append. */
  write(statements: AppendStatement[]): Promise<void> {
    return append(this.knex, statements);
  }

  /**
   * Entries `from` to `from + length` as the two statements that write them: the upsert of their
   * parts (each once) and the INSERT of their requests. A shared part whose flag the handler did
   * not name gets its flag's ulid looked up by key here, one query per batch (handlers that know
   * the flag name it: describePublicAudit).
   */
  async statements(entries: EntrySlots, from: number, length: number, seenAt: string): Promise<AppendStatement[]> {
    const parts: SharedPart[] = [];
    const indexes = new Map<SharedPart, number>();
    const byKey: SharedPart[] = [];
    for (let slot = from * ENTRY_STRIDE, end = (from + length) * ENTRY_STRIDE; slot < end; slot += ENTRY_STRIDE) {
      const part = entries[slot] as SharedPart;
      if (indexes.has(part)) continue;
      indexes.set(part, parts.push(part) - 1);
      if (part.flagByKey) byKey.push(part);
    }
    // This batch's values and id of each part (a part named by key: a named copy).
    const values = parts.map((part) => part.values);
    const ids = parts.map((part) => (part.flagByKey ? '' : (part.id ??= publicAuditPartId(part.values))));
    if (byKey.length > 0) await this.nameFlags(byKey, values, indexes);
    for (const part of byKey) {
      const index = indexes.get(part) as number;
      ids[index] = publicAuditPartId(values[index] as PartValue[]);
    }
    // Two parts of equal values (one named by key, one by its handler) are one row. In the order
    // of their ids: instances upserting the same parts lock them in one order, so MySQL/MariaDB
    // never finds two of them waiting for each other.
    const byId = new Map<string, PartValue[]>();
    for (let index = 0; index < parts.length; index++) byId.set(ids[index] as string, values[index] as PartValue[]);
    const written = [...byId.keys()].sort();
    const partRows: PartValue[] = [];
    for (const id of written) partRows.push(id, seenAt, ...(byId.get(id) as PartValue[]));
    // Padded to a power of two rows by repeating the last part (upserting a row twice is
    // upserting it once): at most eleven statement texts, which the worker keeps prepared.
    // Not on PostgreSQL, which refuses an upsert touching a row twice (and prepares no texts here).
    let partCount = 1;
    while (partCount < written.length) partCount <<= 1;
    if ((this.knex.client as { driverName?: string }).driverName === 'pg') partCount = written.length;
    const partWidth = partRowColumns.length;
    const last = partRows.slice(-partWidth);
    for (let padding = written.length; padding < partCount; padding++) partRows.push(...last);
    const requestRows: PartValue[] = [];
    for (let slot = from * ENTRY_STRIDE, end = (from + length) * ENTRY_STRIDE; slot < end; slot += ENTRY_STRIDE) {
      const part = entries[slot] as SharedPart;
      requestRows.push(entries[slot + 1] as string, entries[slot + 2] as string, entries[slot + 3] as number);
      requestRows.push(ids[indexes.get(part) as number] as string);
    }
    return [
      { sql: insertText('public_audit_parts', partRowColumns, partCount, this.partConflict), values: partRows },
      { sql: insertText('public_audit_requests', requestRowColumns, length), values: requestRows },
    ];
  }

  /**
   * What the parts upsert does with a part already stored: keeps it, moving its last_seen_at
   * on (never back: instances' clocks differ), so retention keeps the parts requests still use.
   */
  private get partConflict(): string {
    const driver = (this.knex.client as { driverName?: string }).driverName;
    if (driver === 'mysql2') return ' ON DUPLICATE KEY UPDATE `last_seen_at` = GREATEST(`last_seen_at`, VALUES(`last_seen_at`))';
    // PostgreSQL: the stored row's column is qualified (unqualified it is ambiguous with excluded's).
    if (driver === 'pg') {
      return ' ON CONFLICT (`id`) DO UPDATE SET `last_seen_at` = GREATEST(`public_audit_parts`.`last_seen_at`, excluded.`last_seen_at`)';
    }
    return ' ON CONFLICT (`id`) DO UPDATE SET `last_seen_at` = max(`last_seen_at`, excluded.`last_seen_at`)';
  }

  /** Puts the flag ulid of each of `parts` (null for an unknown key) into this batch's copy of its values. */
  private async nameFlags(parts: SharedPart[], shared: PartValue[][], indexes: Map<SharedPart, number>): Promise<void> {
    const project = partColumns.indexOf('project_ulid');
    const label = partColumns.indexOf('subject_label');
    const subject = partColumns.indexOf('subject_ulid');
    const projects = [...new Set(parts.map((part) => part.values[project] as string))];
    const keys = [...new Set(parts.map((part) => part.values[label] as string))];
    const flags: Array<{ ulid: string; key: string; project_ulid: string }> = await this.knex('flags')
      .whereIn('project_ulid', projects)
      .whereIn('key', keys)
      .select('ulid', 'key', 'project_ulid');
    const ulidByKey = new Map(flags.map((flag) => [`${flag.project_ulid}/${flag.key}`, flag.ulid]));
    for (const part of parts) {
      // A copy: the shared part stays unnamed, for a flag created later under the same key.
      const values = [...part.values];
      values[subject] = ulidByKey.get(`${values[project]}/${values[label]}`) ?? null;
      shared[indexes.get(part) as number] = values;
    }
  }
}
