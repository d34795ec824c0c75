import type { PartValue } from './public-audit-parts.js';
import { requestColumns } from './public-audit-parts.js';

/** One row of public_audit_entries, as buffered. */
export interface PublicAuditRow {
  ulid: string;
  created_at: string;
  actor_type: 'sdk_key' | 'anonymous';
  actor_ulid: string | null;
  environment_ulid: string | null;
  environment_key: string | null;
  project_ulid: string | null;
  http_method: string;
  http_path: string;
  action: string;
  subject_type: string | null;
  subject_ulid: string | null;
  subject_label: string | null;
  result: string;
  status_code: number;
}

/** Values of its own per entry (ulid, created_at, count). */
const OWN = requestColumns.length;

/**
 * What many entries share, held once (the entries point at it), and written once as a row of
 * public_audit_parts (public-audit-parts.ts). `flagByKey`: the subject is a flag the handler did
 * not name, so its ulid is looked up by key when the entry is written. `id`: its row's id, once
 * computed (never for a part named by key: the named values decide it, batch by batch).
 */
export interface SharedPart {
  values: PartValue[];
  flagByKey: boolean;
  id?: string;
}

/** Slots per buffered entry: its shared part, ulid, created_at and count. */
export const ENTRY_STRIDE = 1 + OWN;

/** A buffered entry's slots (ENTRY_STRIDE each, from a slot that is a multiple of it): its shared part, ulid, created_at and count. */
export type EntrySlots = Array<SharedPart | string | number>;

/** `row`'s values of the shared columns, in their order (spelled out: one array shape, no lookups by name). */
export function sharedValuesOf(row: Omit<PublicAuditRow, 'ulid' | 'created_at'>): PartValue[] {
  return [
    row.actor_type,
    row.actor_ulid,
    row.environment_ulid,
    row.environment_key,
    row.project_ulid,
    row.http_method,
    row.http_path,
    row.action,
    row.subject_type,
    row.subject_ulid,
    row.subject_label,
    row.result,
    row.status_code,
  ];
}

/** Whether `values` (a shared part's) are `row`'s, column by column. */
export function sharesValues(values: PartValue[], row: Omit<PublicAuditRow, 'ulid' | 'created_at'>): boolean {
  return (
    values[12] === row.status_code &&
    values[10] === row.subject_label &&
    values[9] === row.subject_ulid &&
    values[1] === row.actor_ulid &&
    values[7] === row.action &&
    values[11] === row.result &&
    values[8] === row.subject_type &&
    values[2] === row.environment_ulid &&
    values[3] === row.environment_key &&
    values[4] === row.project_ulid &&
    values[0] === row.actor_type &&
    values[5] === row.http_method &&
    values[6] === row.http_path
  );
}
