import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import { pageOf } from '../shared/paging.js';
import type { AccountService } from './service.js';

type Schemas = components['schemas'];
type AccountPath = operations['deleteAccount']['parameters']['path'];
type TokenPath = operations['revokePersonalAccessToken']['parameters']['path'];
type PageQuery = NonNullable<operations['listAccounts']['parameters']['query']>;

/** Handlers of the account and personal access token operations. */
export function accountHandlers(service: AccountService) {
  return {
    async listAccounts(request: ManagementRequest<Record<string, never>, PageQuery>) {
      const page = await service.list(request.principal, pageOf(request.query));
      return { body: { status: 'success', data: page.data, meta: page.meta } satisfies Schemas['AccountListResponse'] };
    },
    async createAccount(request: ManagementRequest<Record<string, never>, unknown, Schemas['AccountCreate']>) {
      const account = await service.create(request.principal, request.body, request.audit);
      return { body: { status: 'success', data: account } satisfies Schemas['AccountResponse'] };
    },
    async updateAccount(request: ManagementRequest<AccountPath, unknown, Schemas['AccountUpdate']>) {
      const account = await service.update(request.principal, request.params.accountUlid, request.body, request.audit);
      return { body: { status: 'success', data: account } satisfies Schemas['AccountResponse'] };
    },
    async deleteAccount(request: ManagementRequest<AccountPath>) {
      await service.delete(request.principal, request.params.accountUlid, request.audit);
      return { body: { status: 'success' } satisfies Schemas['SuccessStatus'] };
    },
    async createPersonalAccessToken(request: ManagementRequest<AccountPath, unknown, Schemas['PersonalAccessTokenCreate']>) {
      const token = await service.createPersonalToken(request.principal, request.params.accountUlid, request.body, request.audit);
      return { body: { status: 'success', data: token } satisfies Schemas['PersonalAccessTokenCreatedResponse'] };
    },
    async revokePersonalAccessToken(request: ManagementRequest<TokenPath>) {
      const { accountUlid, tokenUlid } = request.params;
      await service.revokePersonalToken(request.principal, accountUlid, tokenUlid, request.audit);
      return { body: { status: 'success' } satisfies Schemas['SuccessStatus'] };
    },
  } satisfies Partial<ManagementHandlers>;
}
