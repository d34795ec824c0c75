import type { Clock } from '../../clock.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Db } from '../../storage/db.js';
import type { WebhookStore } from './store.js';

/**
 * The webhook backlog at scrape time, across all subscriptions and instances (it is the
 * database's): events waiting to be delivered, and how long the oldest of them has waited. A
 * backlog that keeps growing, or an age near VEXIL_WEBHOOK_MAX_AGE_MS, means a receiver is down.
 */
export function recordWebhookBacklog(store: Pick<WebhookStore, 'pendingBacklog'>, db: Db, clock: Clock, metrics: Metrics): void {
  let pending: Promise<{ count: number; oldest: string | null }> | undefined;
  // Both gauges come from one query per scrape.
  const read = () => {
    pending ??= store.pendingBacklog(db).finally(() => setImmediate(() => (pending = undefined)));
    return pending;
  };
  metrics.collectQueried(
    'vexil_webhook_backlog_events',
    'Webhook events waiting to be delivered (pending), all subscriptions.',
    async () => [{ value: (await read()).count }],
  );
  metrics.collectQueried(
    'vexil_webhook_oldest_pending_age_seconds',
    'Seconds the oldest pending webhook event has waited (0 when none waits).',
    async () => {
      const { oldest } = await read();
      const age = oldest === null ? 0 : Math.max(0, (clock.now().getTime() - new Date(oldest).getTime()) / 1000);
      return [{ value: age }];
    },
  );
}
