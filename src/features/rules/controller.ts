import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { RulesService } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type RuleWrite = components['schemas']['RuleWrite'];
type RulesOrder = components['schemas']['RulesOrder'];

/** Handlers of the targeting-rule operations, keyed by operationId. */
export function rulesController(service: RulesService) {
  return {
    async listRules(request: ManagementRequest<Path<'listRules'>>) {
      return { body: { status: 'success', data: await service.list(request.principal, request.params, request.audit) } };
    },
    async createRule(request: ManagementRequest<Path<'createRule'>, unknown, RuleWrite>) {
      return { body: { status: 'success', data: await service.create(request.principal, request.params, request.body, request.audit) } };
    },
    async updateRule(request: ManagementRequest<Path<'updateRule'>, unknown, RuleWrite>) {
      return { body: { status: 'success', data: await service.update(request.principal, request.params, request.body, request.audit) } };
    },
    async deleteRule(request: ManagementRequest<Path<'deleteRule'>>) {
      await service.delete(request.principal, request.params, request.audit);
      return { body: { status: 'success' } };
    },
    async reorderRules(request: ManagementRequest<Path<'reorderRules'>, unknown, RulesOrder>) {
      return { body: { status: 'success', data: await service.reorder(request.principal, request.params, request.body, request.audit) } };
    },
  } satisfies Partial<ManagementHandlers>;
}
