import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { Caller, RulesService } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type RuleWrite = components['schemas']['RuleWrite'];
type RulesOrder = components['schemas']['RulesOrder'];

function caller(request: Pick<ManagementRequest, 'principal' | 'audit'>): Caller {
  return { access: request.principal.access, audit: request.audit };
}

/** Handlers of the targeting-rule operations, keyed by operationId. */
export function rulesController(service: RulesService) {
  return {
    async listRules(request: ManagementRequest<Path<'listRules'>>) {
      return { body: { status: 'success', data: await service.list(caller(request), request.params) } };
    },
    async createRule(request: ManagementRequest<Path<'createRule'>, unknown, RuleWrite>) {
      return { body: { status: 'success', data: await service.create(caller(request), request.params, request.body) } };
    },
    async updateRule(request: ManagementRequest<Path<'updateRule'>, unknown, RuleWrite>) {
      return { body: { status: 'success', data: await service.update(caller(request), request.params, request.body) } };
    },
    async deleteRule(request: ManagementRequest<Path<'deleteRule'>>) {
      await service.delete(caller(request), request.params);
      return { body: { status: 'success' } };
    },
    async reorderRules(request: ManagementRequest<Path<'reorderRules'>, unknown, RulesOrder>) {
      return { body: { status: 'success', data: await service.reorder(caller(request), request.params, request.body) } };
    },
  } satisfies Partial<ManagementHandlers>;
}
