import type { operations } from '../../../generated/management.js';
import type { ManagementHandlers } from '../../http/handler-map.js';
import type { ManagementRequest } from '../../http/operation.js';
import type { WebhookService, WebhookWriteInput } from './service.js';

type Path<Op extends keyof operations> = operations[Op]['parameters']['path'];
type ListQuery = { per_page?: number; cursor?: string };

/** How long the previous secret keeps signing after a rotation unless the request says (a day). */
const defaultGracePeriodSeconds = 86_400;

const page = (query: ListQuery) => ({ per_page: query.per_page ?? 25, cursor: query.cursor });

/** Handlers of the webhook operations, keyed by operationId. */
export function webhooksController(service: WebhookService) {
  return {
    async listWebhooks(request: ManagementRequest<Path<'listWebhooks'>, ListQuery>) {
      return {
        body: {
          status: 'success',
          ...(await service.list(request.principal, request.params.projectKey, page(request.query), request.audit)),
        },
      };
    },
    async createWebhook(request: ManagementRequest<Path<'createWebhook'>, unknown, WebhookWriteInput>) {
      return {
        body: { status: 'success', data: await service.create(request.principal, request.params.projectKey, request.body, request.audit) },
      };
    },
    async getWebhook(request: ManagementRequest<Path<'getWebhook'>>) {
      const { projectKey, webhookUlid } = request.params;
      return { body: { status: 'success', data: await service.get(request.principal, projectKey, webhookUlid, request.audit) } };
    },
    async updateWebhook(request: ManagementRequest<Path<'updateWebhook'>, unknown, WebhookWriteInput>) {
      const { projectKey, webhookUlid } = request.params;
      return {
        body: { status: 'success', data: await service.update(request.principal, projectKey, webhookUlid, request.body, request.audit) },
      };
    },
    async deleteWebhook(request: ManagementRequest<Path<'deleteWebhook'>>) {
      const { projectKey, webhookUlid } = request.params;
      await service.delete(request.principal, projectKey, webhookUlid, request.audit);
      return { body: { status: 'success' } };
    },
    async listWebhookDeliveries(request: ManagementRequest<Path<'listWebhookDeliveries'>, ListQuery>) {
      const { projectKey, webhookUlid } = request.params;
      return {
        body: {
          status: 'success',
          ...(await service.deliveries(request.principal, projectKey, webhookUlid, page(request.query), request.audit)),
        },
      };
    },
    async redeliverWebhookDelivery(request: ManagementRequest<Path<'redeliverWebhookDelivery'>>) {
      const { projectKey, webhookUlid, deliveryUlid } = request.params;
      return {
        body: { status: 'success', data: await service.redeliver(request.principal, projectKey, webhookUlid, deliveryUlid, request.audit) },
      };
    },
    async rotateWebhookSecret(
      request: ManagementRequest<Path<'rotateWebhookSecret'>, unknown, { grace_period_seconds?: number } | undefined>,
    ) {
      const { projectKey, webhookUlid } = request.params;
      const grace = request.body?.grace_period_seconds ?? defaultGracePeriodSeconds;
      return {
        body: { status: 'success', data: await service.rotateSecret(request.principal, projectKey, webhookUlid, grace, request.audit) },
      };
    },
    async pingWebhook(request: ManagementRequest<Path<'pingWebhook'>>) {
      const { projectKey, webhookUlid } = request.params;
      return { body: { status: 'success', data: await service.ping(request.principal, projectKey, webhookUlid, request.audit) } };
    },
  } satisfies Partial<ManagementHandlers>;
}
