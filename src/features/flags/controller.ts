import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { FlagService } from './service.js';

type Schemas = components['schemas'];
type ProjectParams = operations['listFlags']['parameters']['path'];
type FlagParams = operations['getFlag']['parameters']['path'];
type ListQuery = NonNullable<operations['listFlags']['parameters']['query']>;
type GetQuery = NonNullable<operations['getFlag']['parameters']['query']>;

/** Handlers of the flag operations, keyed by operationId (specs/management.yaml). */
export function flagHandlers(service: FlagService) {
  return {
    async listFlags(request: ManagementRequest<ProjectParams, ListQuery>) {
      const { per_page = 25, cursor, type, search, tag, include, stale_days = 30, on, off, stale } = request.query;
      const page = await service.list(
        request.principal,
        request.params.projectKey,
        { type, search, ...(tag ? { tag } : {}) },
        // An empty cursor means the first page (the document says so).
        { per_page, cursor: cursor === '' ? undefined : cursor },
        include === 'serving' ? { staleDays: stale_days } : undefined,
        { on, off, stale, staleDays: stale_days },
        request.audit,
      );
      const body: Schemas['FlagListResponse'] = { status: 'success', data: page.data, meta: page.meta };
      return { body };
    },

    async createFlag(request: ManagementRequest<ProjectParams, unknown, Schemas['FlagCreate']>) {
      const data = await service.create(request.principal, request.params.projectKey, request.body, request.audit);
      const body: Schemas['FlagResponse'] = { status: 'success', data };
      return { body };
    },

    async getFlag(request: ManagementRequest<FlagParams, GetQuery>) {
      const { include, stale_days = 30 } = request.query;
      const serving = include === 'serving' ? { staleDays: stale_days } : undefined;
      const data = await service.get(request.principal, request.params.projectKey, request.params.flagKey, serving, request.audit);
      const body: Schemas['FlagResponse'] = { status: 'success', data };
      return { body };
    },

    async updateFlag(request: ManagementRequest<FlagParams, unknown, Schemas['FlagUpdate']>) {
      const { projectKey, flagKey } = request.params;
      const data = await service.update(request.principal, projectKey, flagKey, request.body, request.audit);
      const body: Schemas['FlagResponse'] = { status: 'success', data };
      return { body };
    },

    async deleteFlag(request: ManagementRequest<FlagParams>) {
      await service.delete(request.principal, request.params.projectKey, request.params.flagKey, request.audit);
      const body: Schemas['SuccessStatus'] = { status: 'success' };
      return { body };
    },

    async bulkDeleteFlags(request: ManagementRequest<ProjectParams, unknown, Schemas['BulkDeleteRequest']>) {
      const data = await service.bulkDelete(request.principal, request.params.projectKey, request.body.flag_keys, request.audit);
      const body: Schemas['BulkDeleteResponse'] = { status: 'success', data };
      return { body };
    },
  } satisfies Partial<ManagementHandlers>;
}
