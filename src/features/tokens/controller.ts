import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import { pageOf } from '../shared/paging.js';
import type { ManagementTokenService } from './service.js';

type Schemas = components['schemas'];
type TokenPath = operations['revokeManagementToken']['parameters']['path'];
type PageQuery = NonNullable<operations['listManagementTokens']['parameters']['query']>;

/** Handlers of the management token operations. */
export function managementTokenHandlers(service: ManagementTokenService) {
  return {
    async listManagementTokens(request: ManagementRequest<Record<string, never>, PageQuery>) {
      const page = await service.list(request.principal, pageOf(request.query));
      return { body: { status: 'success', data: page.data, meta: page.meta } satisfies Schemas['ManagementTokenListResponse'] };
    },
    async createManagementToken(request: ManagementRequest<Record<string, never>, unknown, Schemas['ManagementTokenCreate']>) {
      const token = await service.create(request.principal, request.body, request.audit);
      return { body: { status: 'success', data: token } satisfies Schemas['ManagementTokenCreatedResponse'] };
    },
    async revokeManagementToken(request: ManagementRequest<TokenPath>) {
      await service.revoke(request.principal, request.params.tokenUlid, request.audit);
      return { body: { status: 'success' } satisfies Schemas['SuccessStatus'] };
    },
  } satisfies Partial<ManagementHandlers>;
}
