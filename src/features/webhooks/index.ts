import { poller } from '../../poller.js';
import type { FeatureDeps, FeatureParts } from '../feature.js';
import { webhooksController } from './controller.js';
import { WebhookDispatcher } from './dispatcher.js';
import { WebhookOutbox } from './outbox.js';
import { WebhookService } from './service.js';
import { WebhookStore } from './store.js';

/** The change events a subscription can ask for: the document's WebhookEventType, less `*` and the ping. */
function changeEventTypes(deps: FeatureDeps): Set<string> {
  const schemas = (deps.documents.management.dereferenced as unknown as { components: { schemas: Record<string, { enum?: string[] }> } }).components.schemas;
  return new Set((schemas.WebhookEventType?.enum ?? []).filter((type) => type !== '*' && type !== 'webhook.ping'));
}

/** Webhooks: subscriptions, the outbox written with every change, and the delivery task. */
export function createWebhooksFeature(deps: FeatureDeps): FeatureParts {
  const settings = deps.config.webhooks;
  const store = new WebhookStore(deps.knex);
  const outbox = new WebhookOutbox(store, deps.clock, changeEventTypes(deps));
  deps.auditWriter.onChange((db, entry) => outbox.record(db, entry));
  const dispatcher = new WebhookDispatcher(store, settings, deps.clock, deps.logger);
  return {
    managementHandlers: webhooksController(new WebhookService(store, outbox, settings, deps.clock)),
    tasks: [poller('webhook-delivery', settings.pollMs, () => dispatcher.deliverDue(), deps.logger)],
  };
}
