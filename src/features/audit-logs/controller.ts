import type { operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { AuditListParams, AuditLogService } from './service.js';

type AuditQuery = NonNullable<operations['listAuditLogs']['parameters']['query']>;

/** The validated query with the documented default page size (the validator applies it too). */
const listParams = (query: AuditQuery): AuditListParams => ({ per_page: 25, ...query });

/** Handlers of the audit log operations, keyed by operationId (specs/management.yaml). */
export function auditLogHandlers(service: AuditLogService) {
  return {
    async listAuditLogs(request: ManagementRequest<unknown, AuditQuery>) {
      const page = await service.listManagement(request.principal, listParams(request.query));
      return { body: { status: 'success', data: page.data, meta: page.meta } };
    },

    async listPublicAuditLogs(request: ManagementRequest<unknown, AuditQuery>) {
      const page = await service.listPublic(request.principal, listParams(request.query));
      return { body: { status: 'success', data: page.data, meta: page.meta } };
    },
  } satisfies Partial<ManagementHandlers>;
}
