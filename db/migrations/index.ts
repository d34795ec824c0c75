import type { Knex } from 'knex';
import * as initial from './0001_initial.js';
import * as auditIndexes from './0002_audit_indexes.js';
import * as revisionChanges from './0003_revision_changes.js';
import * as auditWriteIndexes from './0004_audit_write_indexes.js';
import * as expiredRollouts from './0006_expired_rollouts.js';
import * as webhooks from './0007_webhooks.js';
import * as auditChanges from './0008_audit_changes.js';
import * as consoleSessions from './0009_console_sessions.js';
import * as temporaryPasswords from './0010_temporary_passwords.js';
import * as webhookDelivery from './0011_webhook_delivery.js';
import * as binaryCollation from './0012_binary_collation.js';
import * as publicAuditCount from './0013_public_audit_count.js';
import * as splits from './0014_splits.js';
import * as targetPrerequisites from './0015_target_prerequisites.js';
import * as webhookSecretRotation from './0017_webhook_secret_rotation.js';
import * as flagTags from './0016_flag_tags.js';
import * as evaluationHours from './0018_evaluation_hours.js';
import * as binaryColumns from './0019_binary_collation.js';
import * as publicAuditParts from './0020_public_audit_parts.js';
import * as auditRequests from './0021_audit_requests.js';

/** Every migration, in order. Listed here so the runner never scans the filesystem. */
export const migrations: Record<string, Knex.Migration> = {
  '0001_initial': initial,
  '0002_audit_indexes': auditIndexes,
  '0003_revision_changes': revisionChanges,
  '0004_audit_write_indexes': auditWriteIndexes,
  '0006_expired_rollouts': expiredRollouts,
  '0007_webhooks': webhooks,
  '0008_audit_changes': auditChanges,
  '0009_console_sessions': consoleSessions,
  '0010_temporary_passwords': temporaryPasswords,
  '0011_webhook_delivery': webhookDelivery,
  '0012_binary_collation': binaryCollation,
  '0013_public_audit_count': publicAuditCount,
  '0014_splits': splits,
  '0015_target_prerequisites': targetPrerequisites,
  '0017_webhook_secret_rotation': webhookSecretRotation,
  '0016_flag_tags': flagTags,
  '0018_evaluation_hours': evaluationHours,
  '0019_binary_collation': binaryColumns,
  '0020_public_audit_parts': publicAuditParts,
  '0021_audit_requests': auditRequests,
};
