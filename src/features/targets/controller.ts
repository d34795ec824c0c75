import type { Knex } from 'knex';
import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlerSet } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import { findFlagEnvironment } from '../shared/lookup.js';
import type { AuditCommit, Confirmation, FlagEnvironment, TargetService } from './service.js';

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
export function targetHandlers(knex: Knex, service: TargetService) {
  const resolve = async (request: { principal: ManagementRequest['principal']; params: FlagEnvPath }): Promise<FlagEnvironment> =>
    findFlagEnvironment(knex, request.principal.access, request.params);
  const commit =
    (request: { audit: ManagementRequest['audit'] }): AuditCommit =>
    (trx, subject) =>
      request.audit.commit(trx, subject);

  return {
    async listTargets(request: ManagementRequest<FlagEnvPath>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.listed'));
      return success((await service.list(ctx)).map((t) => service.view(t)));
    },

    async createTarget(request: ManagementRequest<FlagEnvPath>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.created'));
      const { target } = await service.create(ctx, commit(request));
      return success(service.view(target));
    },

    async getTarget(request: ManagementRequest<TargetPath>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.read', request.params.targetUlid));
      return success(service.view(await service.get(ctx, request.params.targetUlid)));
    },

    async updateTarget(request: ManagementRequest<TargetPath, unknown, Schemas['TargetUpdate']>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.updated', request.params.targetUlid));
      return success(service.view(await service.update(ctx, request.params.targetUlid, request.body, commit(request))));
    },

    async deleteTarget(request: ManagementRequest<TargetPath>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.deleted', request.params.targetUlid));
      await service.remove(ctx, request.params.targetUlid, commit(request));
      return { body: { status: 'success' } };
    },

    async publishTarget(request: ManagementRequest<TargetPath, unknown, Schemas['TargetPublish']>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.published', request.params.targetUlid));
      const input = { ...request.body, console: isConsole(request) };
      const target = await service.publish(ctx, request.params.targetUlid, input, commit(request));
      return success(service.view(target));
    },

    async createRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutCreate']>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.rollout_initialized', request.params.targetUlid));
      const t = await service.createRollout(
        ctx,
        request.params.targetUlid,
        { ...request.body, ...confirmationOf(request) },
        commit(request),
      );
      return success({
        ulid: t.ulid,
        rollout_mode: t.rollout_mode,
        rollout_percentage: t.rollout_percentage,
        rollout_status: t.rollout_status,
      });
    },

    async updateRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutUpdate']>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.rollout_updated', request.params.targetUlid));
      const input = { ...request.body, ...confirmationOf(request) };
      return success(service.view(await service.updateRollout(ctx, request.params.targetUlid, input, commit(request))));
    },

    async deleteRollout(request: ManagementRequest<TargetPath, { confirmation?: string }>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.rollout_deleted', request.params.targetUlid));
      const by = { console: isConsole(request), confirmation: request.query.confirmation };
      return success(service.view(await service.deleteRollout(ctx, request.params.targetUlid, commit(request), by)));
    },

    async completeRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutComplete'] | undefined>) {
      const ctx = await resolve(request);
      request.audit.describe(service.readSubject(ctx, 'target.rollout_completed', request.params.targetUlid));
      const t = await service.completeRollout(ctx, request.params.targetUlid, commit(request), confirmationOf(request));
      return success({ ulid: t.ulid, rollout_percentage: t.rollout_percentage, rollout_status: t.rollout_status });
    },
  } satisfies ManagementHandlerSet;
}
