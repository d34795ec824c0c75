import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { SegmentCreateInput, SegmentsService, SegmentUpdateInput } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type ListQuery = { per_page: number; cursor?: string };

// The document gives defaults to the optional lists; the body validator does not fill them in.
type Loose<T> = Partial<T> & Pick<T, Extract<keyof T, 'key' | 'name'>>;

/** Handlers of the segment operations, keyed by operationId. */
export function segmentsController(service: SegmentsService) {
  return {
    async listSegments(request: ManagementRequest<Path<'listSegments'>, ListQuery>) {
      const page = await service.list(
        request.principal,
        request.params.projectKey,
        { per_page: request.query.per_page ?? 25, cursor: request.query.cursor },
        request.audit,
      );
      return { body: { status: 'success', ...page } };
    },
    async createSegment(request: ManagementRequest<Path<'createSegment'>, unknown, Loose<components['schemas']['SegmentCreate']>>) {
      const body = request.body as SegmentCreateInput;
      return { body: { status: 'success', data: await service.create(request.principal, request.params.projectKey, body, request.audit) } };
    },
    async getSegment(request: ManagementRequest<Path<'getSegment'>>) {
      const { projectKey, segmentKey } = request.params;
      return { body: { status: 'success', data: await service.get(request.principal, projectKey, segmentKey, request.audit) } };
    },
    async updateSegment(request: ManagementRequest<Path<'updateSegment'>, unknown, Loose<components['schemas']['SegmentUpdate']>>) {
      const { projectKey, segmentKey } = request.params;
      const body = request.body as SegmentUpdateInput;
      return { body: { status: 'success', data: await service.update(request.principal, projectKey, segmentKey, body, request.audit) } };
    },
    async deleteSegment(request: ManagementRequest<Path<'deleteSegment'>>) {
      const { projectKey, segmentKey } = request.params;
      await service.delete(request.principal, projectKey, segmentKey, request.audit);
      return { body: { status: 'success' } };
    },
  } satisfies Partial<ManagementHandlers>;
}
