import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import { pageOf } from '../shared/paging.js';
import type { EnvironmentService } from './service.js';

type Schemas = components['schemas'];
type ProjectPath = operations['listEnvironments']['parameters']['path'];
type EnvironmentPath = operations['getEnvironment']['parameters']['path'];
type PageQuery = NonNullable<operations['listEnvironments']['parameters']['query']>;

/** Handlers of the environment operations. */
export function environmentHandlers(service: EnvironmentService) {
  return {
    async listEnvironments(request: ManagementRequest<ProjectPath, PageQuery>) {
      const page = await service.list(request.principal, request.params.projectKey, pageOf(request.query), request.audit);
      return { body: { status: 'success', data: page.data, meta: page.meta } satisfies Schemas['EnvironmentListResponse'] };
    },
    async createEnvironment(request: ManagementRequest<ProjectPath, unknown, Schemas['EnvironmentCreate']>) {
      const environment = await service.create(request.principal, request.params.projectKey, request.body, request.audit);
      return { body: { status: 'success', data: environment } satisfies Schemas['EnvironmentResponse'] };
    },
    async getEnvironment(request: ManagementRequest<EnvironmentPath>) {
      const { projectKey, environmentKey } = request.params;
      const environment = await service.get(request.principal, projectKey, environmentKey, request.audit);
      return { body: { status: 'success', data: environment } satisfies Schemas['EnvironmentResponse'] };
    },
    async updateEnvironment(request: ManagementRequest<EnvironmentPath, unknown, Schemas['EnvironmentUpdate']>) {
      const { projectKey, environmentKey } = request.params;
      const { confirmation, ...input } = request.body;
      const by = { console: request.principal.type === 'console_session', ...(confirmation === undefined ? {} : { confirmation }) };
      const environment = await service.update(request.principal, projectKey, environmentKey, input, by, request.audit);
      return { body: { status: 'success', data: environment } satisfies Schemas['EnvironmentResponse'] };
    },
    async deleteEnvironment(request: ManagementRequest<EnvironmentPath, { confirmation?: string }>) {
      const { projectKey, environmentKey } = request.params;
      const { confirmation } = request.query;
      const by = { console: request.principal.type === 'console_session', ...(confirmation === undefined ? {} : { confirmation }) };
      await service.delete(request.principal, projectKey, environmentKey, by, request.audit);
      return { body: { status: 'success' } satisfies Schemas['SuccessStatus'] };
    },
  } satisfies Partial<ManagementHandlers>;
}
