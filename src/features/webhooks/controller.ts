import type { operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { Caller, WebhookService, WebhookWriteInput } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type ListQuery = { per_page?: number; cursor?: string };

function caller(request: Pick<ManagementRequest, 'principal' | 'audit'>): Caller {
  return { principal: request.principal, audit: request.audit };
}

/** How long the previous secret keeps signing after a rotation unless the request says (a day). */
const defaultGracePeriodSeconds = 86_400;

const page = (query: ListQuery) => ({ per_page: query.per_page ?? 25, cursor: query.cursor });

/** Handlers of the webhook operations, keyed by operationId. */
export function webhooksController(service: WebhookService) {
  return {
    async listWebhooks(request: ManagementRequest<Path<'listWebhooks'>, ListQuery>) {
      return { body: { status: 'success', ...(await service.list(caller(request), request.params.projectKey, page(request.query))) } };
    },
    async createWebhook(request: ManagementRequest<Path<'createWebhook'>, unknown, WebhookWriteInput>) {
      return { body: { status: 'success', data: await service.create(caller(request), request.params.projectKey, request.body) } };
    },
    async getWebhook(request: ManagementRequest<Path<'getWebhook'>>) {
      const { projectKey, webhookUlid } = request.params;
      return { body: { status: 'success', data: await service.get(caller(request), projectKey, webhookUlid) } };
    },
    async updateWebhook(request: ManagementRequest<Path<'updateWebhook'>, unknown, WebhookWriteInput>) {
      const { projectKey, webhookUlid } = request.params;
      return { body: { status: 'success', data: await service.update(caller(request), projectKey, webhookUlid, request.body) } };
    },
    async deleteWebhook(request: ManagementRequest<Path<'deleteWebhook'>>) {
      const { projectKey, webhookUlid } = request.params;
      await service.delete(caller(request), projectKey, webhookUlid);
      return { body: { status: 'success' } };
    },
    async listWebhookDeliveries(request: ManagementRequest<Path<'listWebhookDeliveries'>, ListQuery>) {
      const { projectKey, webhookUlid } = request.params;
      return { body: { status: 'success', ...(await service.deliveries(caller(request), projectKey, webhookUlid, page(request.query))) } };
    },
    async redeliverWebhookDelivery(request: ManagementRequest<Path<'redeliverWebhookDelivery'>>) {
      const { projectKey, webhookUlid, deliveryUlid } = request.params;
      return { body: { status: 'success', data: await service.redeliver(caller(request), projectKey, webhookUlid, deliveryUlid) } };
    },
    async rotateWebhookSecret(
      request: ManagementRequest<Path<'rotateWebhookSecret'>, unknown, { grace_period_seconds?: number } | undefined>,
    ) {
      const { projectKey, webhookUlid } = request.params;
      const grace = request.body?.grace_period_seconds ?? defaultGracePeriodSeconds;
      return { body: { status: 'success', data: await service.rotateSecret(caller(request), projectKey, webhookUlid, grace) } };
    },
    async pingWebhook(request: ManagementRequest<Path<'pingWebhook'>>) {
      const { projectKey, webhookUlid } = request.params;
      return { body: { status: 'success', data: await service.ping(caller(request), projectKey, webhookUlid) } };
    },
  } satisfies Partial<ManagementHandlers>;
}
