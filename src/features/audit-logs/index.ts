import type { CoreDeps } from '../../core.js';
import type { FeatureDeps } from '../feature.js';
import { auditLogHandlers } from './controller.js';
import { auditRetentionTask } from './retention.js';
import { AuditLogService } from './service.js';
import { KnexAuditLogStore } from './store.js';

/** The audit-log reads, over the pool. */
export function buildAuditLogService(deps: Pick<CoreDeps, 'knex' | 'dialect'>): AuditLogService {
  return new AuditLogService({ db: deps.knex, store: new KnexAuditLogStore(deps.dialect) });
}

/**
 * GET /audit-logs and GET /api-public-audit-logs, and the retention job that deletes entries
 * older than VEXIL_AUDIT_RETENTION_DAYS. Entries are written by src/audit (management requests,
 * system actions) and by the public audit buffer (public API requests).
 */
export function createAuditLogsFeature(deps: FeatureDeps) {
  const service = buildAuditLogService(deps);
  return {
    managementHandlers: auditLogHandlers(service),
    tasks: [auditRetentionTask(new KnexAuditLogStore(deps.dialect), deps.knex, deps.clock, deps.config.auditRetentionDays, deps.logger)],
    services: { auditLogs: service },
  };
}
