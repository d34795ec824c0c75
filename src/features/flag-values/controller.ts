import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { FlagValueService, ValuePath } from './service.js';

type Schemas = components['schemas'];
type FlagParams = operations['listFlagValues']['parameters']['path'];
type EnvironmentParams = operations['createFlagValue']['parameters']['path'];
type ValueParams = operations['updateFlagValue']['parameters']['path'];
type EnvironmentValueParams = operations['setDefaultFlagValue']['parameters']['path'];

const caller = (request: ManagementRequest<unknown, unknown, unknown>) => ({
  access: request.principal.access,
  audit: request.audit,
});

/** Both path forms: the environment, when present, must exist but does not scope the value. */
const pathOf = (params: FlagParams & { environmentKey?: string }): ValuePath => ({
  projectKey: params.projectKey,
  flagKey: params.flagKey,
  environmentKey: params.environmentKey,
});

/** Handlers of the flag value operations, keyed by operationId (specs/management.yaml). */
export function flagValueHandlers(service: FlagValueService) {
  const create = async (request: ManagementRequest<FlagParams | EnvironmentParams, unknown, Schemas['FlagValueWrite']>) => {
    const data = await service.create(caller(request), pathOf(request.params), request.body.display);
    const body: Schemas['FlagValueResponse'] = { status: 'success', data };
    return { body };
  };
  const setDefault = async (request: ManagementRequest<ValueParams | EnvironmentValueParams>) => {
    const data = await service.setDefault(caller(request), pathOf(request.params), request.params.valueUlid);
    const body: Schemas['FlagValueResponse'] = { status: 'success', data };
    return { body };
  };
  return {
    async listFlagValues(request: ManagementRequest<FlagParams>) {
      const data = await service.list(caller(request), pathOf(request.params));
      const body: Schemas['FlagValueListResponse'] = { status: 'success', data };
      return { body };
    },
    createFlagValue: create,
    createFlagValueForFlag: create,
    async updateFlagValue(request: ManagementRequest<ValueParams, unknown, Schemas['FlagValueWrite']>) {
      const { valueUlid } = request.params;
      const data = await service.update(caller(request), pathOf(request.params), valueUlid, request.body.display);
      const body: Schemas['FlagValueResponse'] = { status: 'success', data };
      return { body };
    },
    async deleteFlagValue(request: ManagementRequest<ValueParams>) {
      await service.delete(caller(request), pathOf(request.params), request.params.valueUlid);
      const body: Schemas['SuccessStatus'] = { status: 'success' };
      return { body };
    },
    setDefaultFlagValue: setDefault,
    setDefaultFlagValueForFlag: setDefault,
  } satisfies Partial<ManagementHandlers>;
}
