import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { PrerequisitesService } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type PrerequisitesWrite = components['schemas']['PrerequisitesWrite'];

/** Handlers of the target-prerequisite operations, keyed by operationId. */
export function prerequisitesController(service: PrerequisitesService) {
  return {
    async listTargetPrerequisites(request: ManagementRequest<Path<'listTargetPrerequisites'>>) {
      return { body: { status: 'success', data: await service.list(request.principal, request.params, request.audit) } };
    },
    async replaceTargetPrerequisites(request: ManagementRequest<Path<'replaceTargetPrerequisites'>, unknown, PrerequisitesWrite>) {
      return { body: { status: 'success', data: await service.replace(request.principal, request.params, request.body, request.audit) } };
    },
  } satisfies Partial<ManagementHandlers>;
}
