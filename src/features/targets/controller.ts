import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { TargetServices } from './services.js';
import type { TargetRecord } from './store-types.js';
import type { Confirmation, FlagEnvironment } from './types.js';
import { rolloutCompleteView, rolloutSubsetView, targetView } from './view.js';

type Schemas = components['schemas'];
type FlagEnvPath = operations['listTargets']['parameters']['path'];
type TargetPath = operations['getTarget']['parameters']['path'];

const isConsole = (request: Pick<ManagementRequest, 'principal'>) => request.principal.type === 'console_session';

/** The typed confirmation a request carries in its body, and whether a person in the console sent it. */
function confirmationOf(request: Pick<ManagementRequest, 'principal'> & { body?: { confirmation?: string } }): Confirmation {
  return { console: isConsole(request), ...(request.body?.confirmation === undefined ? {} : { confirmation: request.body.confirmation }) };
}

function success<Data>(data: Data) {
  return { body: { status: 'success' as const, data } };
}

/** Handlers of the targets and rollouts operations, keyed by operationId. */
export function targetHandlers(services: TargetServices) {
  const { drafts, publishing, rollouts } = services;
  const view = (t: TargetRecord) => targetView(t, services.rolloutStepMs);
  const resolve = async (request: { principal: ManagementRequest['principal']; params: FlagEnvPath }): Promise<FlagEnvironment> =>
    services.resolve(request.principal, request.params);

  return {
    async listTargets(request: ManagementRequest<FlagEnvPath>) {
      const ctx = await resolve(request);
      return success((await drafts.list(request.principal, ctx, request.audit)).map(view));
    },

    async createTarget(request: ManagementRequest<FlagEnvPath>) {
      const ctx = await resolve(request);
      const { target } = await drafts.create(request.principal, ctx, request.audit);
      return success(view(target));
    },

    async getTarget(request: ManagementRequest<TargetPath>) {
      const ctx = await resolve(request);
      return success(view(await drafts.get(request.principal, ctx, request.params.targetUlid, request.audit)));
    },

    async updateTarget(request: ManagementRequest<TargetPath, unknown, Schemas['TargetUpdate']>) {
      const ctx = await resolve(request);
      return success(view(await drafts.update(request.principal, ctx, request.params.targetUlid, request.body, request.audit)));
    },

    async deleteTarget(request: ManagementRequest<TargetPath>) {
      const ctx = await resolve(request);
      await drafts.remove(request.principal, ctx, request.params.targetUlid, request.audit);
      return { body: { status: 'success' as const } };
    },

    async publishTarget(request: ManagementRequest<TargetPath, unknown, Schemas['TargetPublish']>) {
      const ctx = await resolve(request);
      const input = { ...request.body, console: isConsole(request) };
      return success(view(await publishing.publish(request.principal, ctx, request.params.targetUlid, input, request.audit)));
    },

    async createRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutCreate']>) {
      const ctx = await resolve(request);
      const input = { ...request.body, ...confirmationOf(request) };
      return success(rolloutSubsetView(await rollouts.create(request.principal, ctx, request.params.targetUlid, input, request.audit)));
    },

    async updateRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutUpdate']>) {
      const ctx = await resolve(request);
      const input = { ...request.body, ...confirmationOf(request) };
      return success(view(await rollouts.update(request.principal, ctx, request.params.targetUlid, input, request.audit)));
    },

    async deleteRollout(request: ManagementRequest<TargetPath, { confirmation?: string }>) {
      const ctx = await resolve(request);
      const by = { console: isConsole(request), confirmation: request.query.confirmation };
      return success(view(await rollouts.delete(request.principal, ctx, request.params.targetUlid, by, request.audit)));
    },

    async completeRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutComplete'] | undefined>) {
      const ctx = await resolve(request);
      const by = confirmationOf(request);
      return success(rolloutCompleteView(await rollouts.complete(request.principal, ctx, request.params.targetUlid, by, request.audit)));
    },
  } satisfies Partial<ManagementHandlers>;
}
