import type { ManagementRequest, OperationResult } from '../../http/operation.js';
import type { AuditListParams, AuditLogService } from './service.js';

/** Handlers of the audit log operations, keyed by operationId (specs/management.yaml). */
export function auditLogHandlers(service: AuditLogService) {
  return {
    async listAuditLogs(request: ManagementRequest<unknown, AuditListParams>): Promise<OperationResult> {
      const page = await service.listManagement(request.principal.access, request.query);
      return { body: { status: 'success', data: page.data, meta: page.meta } };
    },

    async listPublicAuditLogs(request: ManagementRequest<unknown, AuditListParams>): Promise<OperationResult> {
      const page = await service.listPublic(request.principal.access, request.query);
      return { body: { status: 'success', data: page.data, meta: page.meta } };
    },
  };
}
