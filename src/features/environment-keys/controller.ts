import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { EnvironmentKeyService } from './service.js';

type Schemas = components['schemas'];
type EnvironmentPath = operations['listEnvironmentKeys']['parameters']['path'];
type KeyPath = operations['revokeEnvironmentKey']['parameters']['path'];

/** Handlers of the environment key operations. */
export function environmentKeyHandlers(service: EnvironmentKeyService) {
  return {
    async listEnvironmentKeys(request: ManagementRequest<EnvironmentPath>) {
      const { projectKey, environmentKey } = request.params;
      const keys = await service.list(request.principal, projectKey, environmentKey, request.audit);
      return { body: { status: 'success', data: keys } satisfies Schemas['EnvironmentKeyListResponse'] };
    },
    async createEnvironmentKey(request: ManagementRequest<EnvironmentPath, unknown, Schemas['EnvironmentKeyCreate']>) {
      const { projectKey, environmentKey } = request.params;
      const key = await service.create(request.principal, projectKey, environmentKey, request.body, request.audit);
      return { body: { status: 'success', data: key } satisfies Schemas['EnvironmentKeyCreatedResponse'] };
    },
    async revokeEnvironmentKey(request: ManagementRequest<KeyPath>) {
      const { projectKey, environmentKey, keyUlid } = request.params;
      await service.revoke(request.principal, projectKey, environmentKey, keyUlid, request.audit);
      return { body: { status: 'success' } satisfies Schemas['SuccessStatus'] };
    },
  } satisfies Partial<ManagementHandlers>;
}
