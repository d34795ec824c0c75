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
] as const;
