import type { operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { InsightsService } from './service.js';

type FlagEnvironmentParams = operations['getFlagInsights']['parameters']['path'];
type EnvironmentParams = operations['listStaleFlags']['parameters']['path'];
type StaleQuery = NonNullable<operations['listStaleFlags']['parameters']['query']>;
type EvaluationHoursQuery = NonNullable<operations['listFlagEvaluationHours']['parameters']['query']>;
type ExposuresQuery = NonNullable<operations['listSplitExposures']['parameters']['query']>;

/** Handlers of the insights operations, keyed by operationId (specs/management.yaml). */
export function insightsHandlers(service: InsightsService) {
  return {
    async getFlagInsights(request: ManagementRequest<FlagEnvironmentParams>) {
      const data = await service.flagInsights(request.principal, request.params, request.audit);
      return { body: { status: 'success', data } };
    },

    async listSplitExposures(request: ManagementRequest<FlagEnvironmentParams, ExposuresQuery>) {
      const data = await service.splitExposures(request.principal, request.params, request.query.days ?? 7, request.audit);
      return { body: { status: 'success', data } };
    },

    async listFlagEvaluationHours(request: ManagementRequest<FlagEnvironmentParams, EvaluationHoursQuery>) {
      const data = await service.evaluationHours(request.principal, request.params, request.query.hours ?? 168, request.audit);
      return { body: { status: 'success', data } };
    },

    async listStaleFlags(request: ManagementRequest<EnvironmentParams, StaleQuery>) {
      const data = await service.staleFlags(request.principal, request.params, request.query.days ?? 30, request.audit);
      return { body: { status: 'success', data } };
    },

    async listDefaultValueReports(request: ManagementRequest<EnvironmentParams>) {
      const data = await service.defaultValueReports(request.principal, request.params, request.audit);
      return { body: { status: 'success', data } };
    },

    async listContextAttributes(request: ManagementRequest<EnvironmentParams>) {
      const data = await service.contextAttributes(request.principal, request.params, request.audit);
      return { body: { status: 'success', data } };
    },
  } satisfies Partial<ManagementHandlers>;
}
