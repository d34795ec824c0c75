import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { Caller, PrerequisitesService } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type PrerequisitesWrite = components['schemas']['PrerequisitesWrite'];

function caller(request: Pick<ManagementRequest, 'principal' | 'audit'>): Caller {
  return { access: request.principal.access, audit: request.audit };
}

/** Handlers of the target-prerequisite operations, keyed by operationId. */
export function prerequisitesController(service: PrerequisitesService) {
  return {
    async listTargetPrerequisites(request: ManagementRequest<Path<'listTargetPrerequisites'>>) {
      return { body: { status: 'success', data: await service.list(caller(request), request.params) } };
    },
    async replaceTargetPrerequisites(request: ManagementRequest<Path<'replaceTargetPrerequisites'>, unknown, PrerequisitesWrite>) {
      return { body: { status: 'success', data: await service.replace(caller(request), request.params, request.body) } };
    },
  } satisfies Partial<ManagementHandlers>;
}
