/**
 * Columns of audit_entries, in one order for the writer (AuditWriter.values) and the audit-log
 * reader (rows read as arrays).
 */
export const managementAuditColumns = [
  'ulid',
  'created_at',
  'actor_type',
  'actor_ulid',
  'actor_name',
  'actor_email',
  'token_ulid',
  'token_name',
  'http_method',
  'http_path',
  'action',
  'subject_type',
  'subject_ulid',
  'subject_label',
  'result',
  'status_code',
  'project_ulid',
  'environment_ulid',
  'changes',
  'request_ulid',
  'request_action',
] as const;

/** Columns of public_audit_entries, in the order the public audit buffer writes them (rowValues). */
export const publicAuditColumns = [
  'ulid',
  'created_at',
  'actor_type',
  'actor_ulid',
  'environment_ulid',
  'environment_key',
  'project_ulid',
  'http_method',
  'http_path',
  'action',
  'subject_type',
  'subject_ulid',
  'subject_label',
  'result',
  'status_code',
  'count',
] as const;

/** What the public audit log lists of an entry (the request line is not part of it). */
export const publicAuditListedColumns = publicAuditColumns.filter((c) => c !== 'http_method' && c !== 'http_path');
