import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { FlagValueService, ValuePath } from './service.js';

type Schemas = components['schemas'];
type FlagParams = operations['listFlagValues']['parameters']['path'];
type EnvironmentParams = operations['createFlagValue']['parameters']['path'];
type ValueParams = operations['updateFlagValue']['parameters']['path'];
type EnvironmentValueParams = operations['setDefaultFlagValue']['parameters']['path'];

/** Both path forms: the environment, when present, must exist but does not scope the value. */
const pathOf = (params: FlagParams & { environmentKey?: string }): ValuePath => ({
  projectKey: params.projectKey,
  flagKey: params.flagKey,
  environmentKey: params.environmentKey,
});

/** Handlers of the flag value operations, keyed by operationId (specs/management.yaml). */
export function flagValueHandlers(service: FlagValueService) {
  const create = async (request: ManagementRequest<FlagParams | EnvironmentParams, unknown, Schemas['FlagValueWrite']>) => {
    const data = await service.create(request.principal, pathOf(request.params), request.body.display, request.audit);
    const body: Schemas['FlagValueResponse'] = { status: 'success', data };
    return { body };
  };
  const setDefault = async (request: ManagementRequest<ValueParams | EnvironmentValueParams>) => {
    const data = await service.setDefault(request.principal, pathOf(request.params), request.params.valueUlid, request.audit);
    const body: Schemas['FlagValueResponse'] = { status: 'success', data };
    return { body };
  };
  return {
    async listFlagValues(request: ManagementRequest<FlagParams>) {
      const data = await service.list(request.principal, pathOf(request.params), request.audit);
      const body: Schemas['FlagValueListResponse'] = { status: 'success', data };
      return { body };
    },
    createFlagValue: create,
    createFlagValueForFlag: create,
    async updateFlagValue(request: ManagementRequest<ValueParams, unknown, Schemas['FlagValueWrite']>) {
      const { valueUlid } = request.params;
      const data = await service.update(request.principal, pathOf(request.params), valueUlid, request.body.display, request.audit);
      const body: Schemas['FlagValueResponse'] = { status: 'success', data };
      return { body };
    },
    async deleteFlagValue(request: ManagementRequest<ValueParams>) {
      await service.delete(request.principal, pathOf(request.params), request.params.valueUlid, request.audit);
      const body: Schemas['SuccessStatus'] = { status: 'success' };
      return { body };
    },
    setDefaultFlagValue: setDefault,
    setDefaultFlagValueForFlag: setDefault,
  } satisfies Partial<ManagementHandlers>;
}
