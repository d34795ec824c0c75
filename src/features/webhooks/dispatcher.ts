import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { WebhookSettings } from './settings.js';
import { signWebhook } from './signing.js';
import type { WebhookEventRecord, WebhookStore } from './store.js';
import { refuseWebhookUrl } from './url-guard.js';

/** Response bodies are read up to this many bytes, then dropped: a receiver cannot flood us. */
const maxResponseBytes = 4096;
/** Events taken per poll; each subscription contributes at most its oldest. */
const batchSize = 20;
const maxBackoffMs = 3_600_000;

interface AttemptOutcome {
  ok: boolean;
  code: number | null;
  error: string | null;
  durationMs: number;
}

async function readLimited(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
    if (read >= maxResponseBytes) {
      await reader.cancel();
      return;
    }
  }
}

/**
 * Delivers outbox events: every instance polls, and an event is attempted only by the instance
 * holding its lease, so one attempt at a time per event; each subscription's events go out in
 * order (only its oldest waiting event is due). Failures retry with exponential backoff and
 * jitter until the event is older than the retry window.
 */
export class WebhookDispatcher {
  constructor(
    private readonly store: WebhookStore,
    private readonly settings: WebhookSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** One poll: attempts every due head event, concurrently across subscriptions. */
  async deliverDue(): Promise<number> {
    const now = this.clock.now();
    const heads = await this.store.dueHeads(now.toISOString(), batchSize);
    const results = await Promise.all(heads.map((event) => this.attempt(event)));
    return results.filter(Boolean).length;
  }

  private async attempt(event: WebhookEventRecord & { url: string; secret: string }): Promise<boolean> {
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + this.settings.timeoutMs + 5_000).toISOString();
    if (!(await this.store.claim(event.ulid, now.toISOString(), leaseUntil))) return false;
    const outcome = await this.send(event);
    const done = this.clock.now();
    const attempts = event.attempts + 1;
    const expired = done.getTime() - Date.parse(event.created_at) >= this.settings.maxAgeMs;
    const status = outcome.ok ? 'delivered' : expired ? 'failed' : 'pending';
    const nextAttemptAt = status === 'pending' ? new Date(done.getTime() + this.backoff(attempts)).toISOString() : null;
    await this.store.recordAttempt(
      event,
      { status, code: outcome.code, error: outcome.error, durationMs: outcome.durationMs, nextAttemptAt, nowIso: done.toISOString() },
      this.settings.disableAfter,
    );
    if (!outcome.ok) this.logger.warn({ webhookEvent: event.ulid, code: outcome.code, error: outcome.error, attempts }, 'webhook delivery failed');
    return outcome.ok;
  }

  /** Exponential from the base, with full jitter over its upper half, capped at an hour. */
  private backoff(attempts: number): number {
    const ceiling = Math.min(maxBackoffMs, this.settings.retryBaseMs * 2 ** Math.min(attempts - 1, 20));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private async send(event: WebhookEventRecord & { url: string; secret: string }): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // Checked again at every attempt: a host may resolve elsewhere than when it was saved.
    const refused = await refuseWebhookUrl(event.url, this.settings);
    if (refused) return { ok: false, code: null, error: refused, durationMs: elapsed() };
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    try {
      const response = await fetch(event.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Vexil-Webhooks',
          'webhook-id': event.ulid,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(event.secret, event.ulid, timestamp, event.payload),
        },
        body: event.payload,
      });
      await readLimited(response).catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return { ok, code: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: elapsed() };
    } catch (error) {
      const name = (error as Error).name;
      const message = name === 'TimeoutError' ? `No response within ${this.settings.timeoutMs} ms.` : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
      return { ok: false, code: null, error: message, durationMs: elapsed() };
    }
  }
}
