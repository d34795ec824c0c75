import type { Knex } from 'knex';
import type { components, operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import { findFlagEnvironment } from '../shared/lookup.js';
import { readSubject } from './audit-subject.js';
import type { TargetServices } from './services.js';
import type { TargetRecord } from './store-types.js';
import type { AuditCommit, Confirmation, FlagEnvironment } from './types.js';
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
export function targetHandlers(knex: Knex, services: TargetServices) {
  const { drafts, publishing, rollouts } = services;
  const view = (t: TargetRecord) => targetView(t, services.rolloutStepMs);
  const resolve = async (request: { principal: ManagementRequest['principal']; params: FlagEnvPath }): Promise<FlagEnvironment> =>
    findFlagEnvironment(knex, request.principal.access, request.params);
  const commit =
    (request: { audit: ManagementRequest['audit'] }): AuditCommit =>
    (trx, subject) =>
      request.audit.commit(trx, subject);

  return {
    async listTargets(request: ManagementRequest<FlagEnvPath>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.listed'));
      return success((await drafts.list(ctx)).map(view));
    },

    async createTarget(request: ManagementRequest<FlagEnvPath>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.created'));
      const { target } = await drafts.create(ctx, commit(request));
      return success(view(target));
    },

    async getTarget(request: ManagementRequest<TargetPath>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.read', request.params.targetUlid));
      return success(view(await drafts.get(ctx, request.params.targetUlid)));
    },

    async updateTarget(request: ManagementRequest<TargetPath, unknown, Schemas['TargetUpdate']>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.updated', request.params.targetUlid));
      return success(view(await drafts.update(ctx, request.params.targetUlid, request.body, commit(request))));
    },

    async deleteTarget(request: ManagementRequest<TargetPath>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.deleted', request.params.targetUlid));
      await drafts.remove(ctx, request.params.targetUlid, commit(request));
      return { body: { status: 'success' as const } };
    },

    async publishTarget(request: ManagementRequest<TargetPath, unknown, Schemas['TargetPublish']>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.published', request.params.targetUlid));
      const input = { ...request.body, console: isConsole(request) };
      return success(view(await publishing.publish(ctx, request.params.targetUlid, input, commit(request))));
    },

    async createRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutCreate']>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.rollout_initialized', request.params.targetUlid));
      const input = { ...request.body, ...confirmationOf(request) };
      return success(rolloutSubsetView(await rollouts.create(ctx, request.params.targetUlid, input, commit(request))));
    },

    async updateRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutUpdate']>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.rollout_updated', request.params.targetUlid));
      const input = { ...request.body, ...confirmationOf(request) };
      return success(view(await rollouts.update(ctx, request.params.targetUlid, input, commit(request))));
    },

    async deleteRollout(request: ManagementRequest<TargetPath, { confirmation?: string }>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.rollout_deleted', request.params.targetUlid));
      const by = { console: isConsole(request), confirmation: request.query.confirmation };
      return success(view(await rollouts.delete(ctx, request.params.targetUlid, by, commit(request))));
    },

    async completeRollout(request: ManagementRequest<TargetPath, unknown, Schemas['RolloutComplete'] | undefined>) {
      const ctx = await resolve(request);
      request.audit.describe(readSubject(ctx, 'target.rollout_completed', request.params.targetUlid));
      const by = confirmationOf(request);
      return success(rolloutCompleteView(await rollouts.complete(ctx, request.params.targetUlid, by, commit(request))));
    },
  } satisfies Partial<ManagementHandlers>;
}
