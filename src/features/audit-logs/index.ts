import type { FeatureDeps } from '../feature.js';
import { auditLogHandlers } from './controller.js';
import { auditRetentionTask } from './retention.js';
import { AuditLogService } from './service.js';
import { KnexAuditLogStore } from './store.js';

/**
 * GET /audit-logs and GET /api-public-audit-logs, and the retention job that deletes entries
 * older than VEXIL_AUDIT_RETENTION_DAYS. Entries are written by src/audit (management requests,
 * system actions) and by the public audit buffer (public API requests).
 */
export function createAuditLogsFeature(deps: FeatureDeps) {
  const store = new KnexAuditLogStore(deps.knex, deps.dialect);
  const service = new AuditLogService({ store });
  return {
    managementHandlers: auditLogHandlers(service),
    tasks: [auditRetentionTask(store, deps.knex, deps.clock, deps.config.auditRetentionDays, deps.logger)],
  };
}
