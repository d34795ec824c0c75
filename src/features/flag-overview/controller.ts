import type { operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { FlagOverviewService } from './service.js';

type Path = operations['getFlagEnvironmentOverview']['parameters']['path'];
type Query = NonNullable<operations['getFlagEnvironmentOverview']['parameters']['query']>;

/** Handler of getFlagEnvironmentOverview (specs/management.yaml). */
export function flagOverviewHandlers(service: FlagOverviewService) {
  return {
    async getFlagEnvironmentOverview(request: ManagementRequest<Path, Query>) {
      const window = { hours: request.query.hours ?? 168, days: request.query.days ?? 7 };
      const data = await service.get(request.principal, request.params, window, request.audit);
      return { body: { status: 'success', data } };
    },
  } satisfies Partial<ManagementHandlers>;
}
