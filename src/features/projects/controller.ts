import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import { pageOf } from '../shared/paging.js';
import type { ProjectService } from './service.js';

type Schemas = components['schemas'];
type ProjectPath = operations['getProject']['parameters']['path'];
type PageQuery = NonNullable<operations['listProjects']['parameters']['query']>;

/** Handlers of the project operations: they read the request and call the service. */
export function projectHandlers(service: ProjectService) {
  return {
    async listProjects(request: ManagementRequest<Record<string, never>, PageQuery>) {
      const page = await service.list(request.principal, pageOf(request.query));
      return { body: { status: 'success', data: page.data, meta: page.meta } satisfies Schemas['ProjectListResponse'] };
    },
    async createProject(request: ManagementRequest<Record<string, never>, unknown, Schemas['ProjectCreate']>) {
      const project = await service.create(request.principal, request.body, request.audit);
      return { body: { status: 'success', data: project } satisfies Schemas['ProjectResponse'] };
    },
    async getProject(request: ManagementRequest<ProjectPath>) {
      const project = await service.get(request.principal, request.params.projectKey, request.audit);
      return { body: { status: 'success', data: project } satisfies Schemas['ProjectResponse'] };
    },
    async updateProject(request: ManagementRequest<ProjectPath, unknown, Schemas['ProjectUpdate']>) {
      const project = await service.update(request.principal, request.params.projectKey, request.body, request.audit);
      return { body: { status: 'success', data: project } satisfies Schemas['ProjectResponse'] };
    },
    async deleteProject(request: ManagementRequest<ProjectPath, { confirmation?: string }>) {
      const { confirmation } = request.query;
      const by = { console: request.principal.type === 'console_session', ...(confirmation === undefined ? {} : { confirmation }) };
      await service.delete(request.principal, request.params.projectKey, by, request.audit);
      return { body: { status: 'success' } satisfies Schemas['SuccessStatus'] };
    },
  } satisfies Partial<ManagementHandlers>;
}
