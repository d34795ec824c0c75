import type { operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { ConfigurationExportService } from './export-service.js';
import type { ProjectConfiguration } from './plan.js';
import type { ConfigurationPlanService } from './plan-service.js';
import type { ConfigurationApplyService } from './apply-service.js';
import type { PromoteInput, PromoteService } from './promote-service.js';
import type { RestoreInput, RestoreService } from './restore-service.js';
import type { ServeInput, ServeService } from './serve-service.js';
import type { SwitchInput, SwitchService } from './switch-service.js';
import { targetView } from '../targets/view.js';
import { chooseFormat, configurationContentTypes, serialiseConfiguration } from './serialise.js';

type Op<K extends keyof operations> = operations[K]['parameters'];

/** The query of plan and apply: both take the same options, so plan reports what apply would refuse. */
type ChangeQuery = { prune?: boolean; comment?: string; confirmation?: string };

function changeOptions(query: ChangeQuery) {
  return { prune: query.prune === true, comment: query.comment, confirmed: query.confirmation?.split(',') };
}

/**
 * Handlers of the flags-as-code operations, keyed by operationId; `rolloutStepMs` (the automatic
 * rollout step interval) completes the Target that serving a value answers with.
 */
export function configurationController(
  services: {
    exporter: ConfigurationExportService;
    planner: ConfigurationPlanService;
    applier: ConfigurationApplyService;
    promoter: PromoteService;
    server: ServeService;
    restorer: RestoreService;
    switcher: SwitchService;
  },
  rolloutStepMs: number,
) {
  const { exporter, planner, applier, promoter, server, restorer, switcher } = services;
  return {
    async exportProjectConfiguration(
      request: ManagementRequest<Op<'exportProjectConfiguration'>['path'], NonNullable<Op<'exportProjectConfiguration'>['query']>>,
    ) {
      const environments = request.query.environments?.split(',');
      const document = await exporter.export(request.principal, request.params.projectKey, { environments }, request.audit);
      const accept = request.headers.accept;
      const format = chooseFormat(request.query.format, Array.isArray(accept) ? accept.join(',') : accept);
      return { body: serialiseConfiguration(document, format), headers: { 'Content-Type': configurationContentTypes[format] } };
    },
    async planProjectConfiguration(request: ManagementRequest<Op<'planProjectConfiguration'>['path'], ChangeQuery, ProjectConfiguration>) {
      const plan = await planner.plan(
        request.principal,
        request.params.projectKey,
        request.body,
        changeOptions(request.query),
        request.audit,
      );
      return { body: { status: 'success', data: plan } };
    },
    async applyProjectConfiguration(
      request: ManagementRequest<Op<'applyProjectConfiguration'>['path'], ChangeQuery, ProjectConfiguration>,
    ) {
      const applied = await applier.apply(
        request.principal,
        request.params.projectKey,
        request.body,
        changeOptions(request.query),
        request.audit,
      );
      return { body: { status: 'success', data: applied } };
    },
    async promoteConfiguration(request: ManagementRequest<Op<'promoteConfiguration'>['path'], unknown, PromoteInput>) {
      const result = await promoter.promote(request.principal, request.params.projectKey, request.body, request.audit);
      return { body: { status: 'success', data: result } };
    },
    async serveFlagValue(request: ManagementRequest<Op<'serveFlagValue'>['path'], unknown, ServeInput>) {
      const target = await server.serve(request.principal, request.params, request.body, request.audit);
      return { body: { status: 'success', data: targetView(target, rolloutStepMs) } };
    },
    async restoreTarget(request: ManagementRequest<Op<'restoreTarget'>['path'], unknown, RestoreInput>) {
      const target = await restorer.restore(request.principal, request.params, request.body, request.audit);
      return { body: { status: 'success', data: targetView(target, rolloutStepMs) } };
    },
    async switchFlag(request: ManagementRequest<Op<'switchFlag'>['path'], unknown, SwitchInput>) {
      const state = await switcher.switch(request.principal, request.params, request.body, request.audit);
      return { body: { status: 'success', data: state } };
    },
  } satisfies Partial<ManagementHandlers>;
}
