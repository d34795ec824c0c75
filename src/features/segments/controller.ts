import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { Caller } from '../rules/service.js';
import type { SegmentCreateInput, SegmentsService, SegmentUpdateInput } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type ListQuery = { per_page: number; cursor?: string };

// The document gives defaults to the optional lists; the body validator does not fill them in.
type Loose<T> = Partial<T> & Pick<T, Extract<keyof T, 'key' | 'name'>>;

function caller(request: Pick<ManagementRequest, 'principal' | 'audit'>): Caller {
  return { access: request.principal.access, audit: request.audit };
}

/** Handlers of the segment operations, keyed by operationId. */
export function segmentsController(service: SegmentsService) {
  return {
    async listSegments(request: ManagementRequest<Path<'listSegments'>, ListQuery>) {
      const page = await service.list(caller(request), request.params.projectKey, {
        per_page: request.query.per_page ?? 25,
        cursor: request.query.cursor,
      });
      return { body: { status: 'success', ...page } };
    },
    async createSegment(request: ManagementRequest<Path<'createSegment'>, unknown, Loose<components['schemas']['SegmentCreate']>>) {
      const body = request.body as SegmentCreateInput;
      return { body: { status: 'success', data: await service.create(caller(request), request.params.projectKey, body) } };
    },
    async getSegment(request: ManagementRequest<Path<'getSegment'>>) {
      const { projectKey, segmentKey } = request.params;
      return { body: { status: 'success', data: await service.get(caller(request), projectKey, segmentKey) } };
    },
    async updateSegment(request: ManagementRequest<Path<'updateSegment'>, unknown, Loose<components['schemas']['SegmentUpdate']>>) {
      const { projectKey, segmentKey } = request.params;
      const body = request.body as SegmentUpdateInput;
      return { body: { status: 'success', data: await service.update(caller(request), projectKey, segmentKey, body) } };
    },
    async deleteSegment(request: ManagementRequest<Path<'deleteSegment'>>) {
      const { projectKey, segmentKey } = request.params;
      await service.delete(caller(request), projectKey, segmentKey);
      return { body: { status: 'success' } };
    },
  } satisfies Partial<ManagementHandlers>;
}
