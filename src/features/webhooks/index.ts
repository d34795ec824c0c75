import type { BackgroundTask } from '../../core.js';
import type { FeatureDeps } from '../feature.js';
import { knexTransactor } from '../shared/transactions.js';
import { recordWebhookBacklog } from './backlog-metrics.js';
import { webhooksController } from './controller.js';
import { WebhookDispatcher } from './dispatcher.js';
import { EventTypes } from './event-types.js';
import { WebhookOutbox } from './outbox.js';
import { webhookRetentionTask } from './retention.js';
import { WebhookSecrets } from './secrets.js';
import { WebhookService } from './service.js';
import { WebhookStore } from './store.js';

/** The events a subscription can ask for: the document's WebhookEventType. */
function eventTypes(deps: FeatureDeps): EventTypes {
  const schemas = (deps.documents.management.dereferenced as unknown as { components: { schemas: Record<string, { enum?: string[] }> } })
    .components.schemas;
  return new EventTypes(schemas.WebhookEventType?.enum ?? []);
}

/** Seals, once per start, secrets stored in clear or under an older key (webhooks/secrets.ts). */
function sealSecretsTask(secrets: WebhookSecrets, deps: FeatureDeps): BackgroundTask {
  let running: Promise<unknown> | undefined;
  return {
    name: 'webhook-secrets',
    start() {
      running ??= secrets
        .upgradeStoredSecrets(deps.logger)
        .catch((err: unknown) => deps.logger.error({ err }, 'sealing webhook secrets failed'));
    },
    async stop() {
      await running;
    },
  };
}

/** Webhooks: subscriptions, the outbox written with every change, and the delivery task. */
export function createWebhooksFeature(deps: FeatureDeps) {
  const settings = deps.config.webhooks;
  const store = new WebhookStore(deps.dialect);
  const secrets = new WebhookSecrets(store, deps.knex, deps.config.secretKeys, deps.clock);
  const outbox = new WebhookOutbox(store, deps.clock, eventTypes(deps));
  deps.auditWriter.onChange((db, entry) => outbox.record(db, entry));
  const attempts = deps.metrics.webhookAttempts;
  const onAttempt = (result: 'delivered' | 'retrying' | 'failed') => attempts.series(result).inc();
  const dispatcher = new WebhookDispatcher({ db: deps.knex, store, secrets, settings, clock: deps.clock, logger: deps.logger, onAttempt });
  recordWebhookBacklog(store, deps.knex, deps.clock, deps.metrics);
  return {
    managementHandlers: webhooksController(
      new WebhookService({
        db: deps.knex,
        tx: knexTransactor(deps.knex),
        lookups: deps.lookups,
        store,
        outbox,
        secrets,
        settings,
        clock: deps.clock,
      }),
    ),
    tasks: [
      sealSecretsTask(secrets, deps),
      dispatcher.task(),
      webhookRetentionTask(store, deps.knex, deps.clock, settings.retentionDays, deps.logger),
    ],
  };
}
