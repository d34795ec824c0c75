/**
 * Checked by `make typecheck` (tsconfig.test.json), never run: each `@ts-expect-error` below must
 * meet an error, so the handler-map types of src/http/handler-map.ts must keep refusing a missing
 * handler, an extra one and a body of the wrong shape, and keep accepting a right one.
 */
import type { components } from '../../generated/management.js';
import type { components as PublicComponents } from '../../generated/public.js';
import type { managementEvaluationHandlers, publicEvaluationHandlers } from '../../src/features/evaluation/controller.js';
import type { rulesController } from '../../src/features/rules/controller.js';
import type { webhooksController } from '../../src/features/webhooks/controller.js';
import type { JsonText } from '../../src/http/json-text.js';
import type { ManagementRequest, PublicRequest } from '../../src/http/operation.js';
import type { EveryOperationHandled } from '../../src/composition-root.js';
import type { HandlersCover, ManagementHandlers, ManagementOperations, PublicHandlers } from '../../src/http/handler-map.js';

type Holds<Check extends true> = Check;
type AllOperations = keyof ManagementOperations;

// The composition root's own check holds today.
export const composed: EveryOperationHandled = [true, true];

// Every operation handled, nothing more: accepted.
export type Complete = Holds<HandlersCover<AllOperations, AllOperations>>;

// One handler removed (listProjects): refused.
// @ts-expect-error the missing handler fails the check
export type OneMissing = Holds<HandlersCover<Exclude<AllOperations, 'listProjects'>, AllOperations>>;

// A handler for an operation the document does not have: refused.
// @ts-expect-error the extra handler fails the check
export type OneExtra = Holds<HandlersCover<AllOperations | 'listProjectz', AllOperations>>;

type Project = components['schemas']['ProjectResponse']['data'];
declare const project: Project;

// A body of the documented shape: accepted.
export const right: Pick<ManagementHandlers, 'getProject'> = {
  getProject: async (_request: ManagementRequest<{ projectKey: string }>) => ({ body: { status: 'success' as const, data: project } }),
};

export const wrong: Pick<ManagementHandlers, 'getProject'> = {
  // @ts-expect-error a body of another shape (the project without its envelope) fails
  getProject: async (_request: ManagementRequest<{ projectKey: string }>) => ({ body: project }),
};

// The evaluation, rules and webhooks maps are checked the same way: their controllers' maps hold,
// and a body of another shape from one of their operations is refused.
type Checked<Map, Handlers> = Map extends Partial<Handlers> ? true : false;
export type RulesChecked = Holds<Checked<ReturnType<typeof rulesController>, ManagementHandlers>>;
export type WebhooksChecked = Holds<Checked<ReturnType<typeof webhooksController>, ManagementHandlers>>;
export type ManagementEvaluationChecked = Holds<Checked<ReturnType<typeof managementEvaluationHandlers>, ManagementHandlers>>;
export type PublicEvaluationChecked = Holds<Checked<ReturnType<typeof publicEvaluationHandlers>, PublicHandlers>>;

type RuleList = components['schemas']['RuleListResponse'];
type Rule = components['schemas']['Rule'];
declare const rules: RuleList;
declare const rule: Rule;
type RulePath = { projectKey: string; flagKey: string; environmentKey: string; targetUlid: string };

export const rightRules: Pick<ManagementHandlers, 'listRules'> = {
  listRules: async (_request: ManagementRequest<RulePath>) => ({ body: rules }),
};

export const wrongRules: Pick<ManagementHandlers, 'listRules'> = {
  // @ts-expect-error a criterion whose selector is any string (the rules service's former view) fails
  listRules: async (_request: ManagementRequest<RulePath>) => ({
    body: {
      status: 'success' as const,
      data: [{ ...rule, criteria: { data: [{ ...rule.criteria.data[0]!, selector: 'anything' as string }] } }],
    },
  }),
};

declare const delivery: components['schemas']['WebhookDelivery'];
type WebhookPath = { projectKey: string; webhookUlid: string };

export const wrongDelivery: Pick<ManagementHandlers, 'pingWebhook'> = {
  // @ts-expect-error an event type the document does not list fails
  pingWebhook: async (_request: ManagementRequest<WebhookPath>) => ({
    body: { status: 'success' as const, data: { ...delivery, event_type: 'webhook.pong' as const } },
  }),
};

type EvaluatedList = PublicComponents['schemas']['EvaluatedFlagListResponse'];
type EvaluatedOne = PublicComponents['schemas']['EvaluatedFlagResponse'];
declare const listText: JsonText<EvaluatedList>;
declare const oneText: JsonText<EvaluatedOne>;

// JSON text is checked by the body it encodes.
export const rightText: Pick<PublicHandlers, 'listEvaluatedFlags'> = {
  listEvaluatedFlags: async (_request: PublicRequest) => ({ body: listText }),
};

export const wrongText: Pick<PublicHandlers, 'listEvaluatedFlags'> = {
  // @ts-expect-error the text of one evaluated flag is not the list's body
  listEvaluatedFlags: async (_request: PublicRequest) => ({ body: oneText }),
};

declare const success: PublicComponents['schemas']['OfrepEvaluationSuccess'];

export const wrongOfrep: Pick<PublicHandlers, 'ofrepEvaluateFlag'> = {
  // @ts-expect-error an OFREP answer without its metadata fails
  ofrepEvaluateFlag: async (_request: PublicRequest<{ key: string }>) => ({
    body: { key: success.key, reason: success.reason, variant: success.variant, value: success.value },
  }),
};
