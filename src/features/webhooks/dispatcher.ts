import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { BackgroundTask } from '../../core.js';
import { retryDelayMs } from './backoff.js';
import { deliveryAgents, postPinned, type DeliveryAgents } from './delivery-request.js';
import type { WebhookSecrets } from './secrets.js';
import type { WebhookSettings } from './settings.js';
import { signWebhook } from './signing.js';
import type { DueEvent, WebhookStore } from './store.js';
import { hostOf, parseWebhookUrl, systemResolver, vetWebhookHost, type Resolver } from './url-guard.js';

/** Lease beyond the attempt's own limit: time to record the result after an attempt that used it all. */
const leaseMarginMs = 5_000;

interface AttemptOutcome {
  ok: boolean;
  code: number | null;
  error: string | null;
  durationMs: number;
}

/** What a finished attempt means for the subscription's queue. */
type Next = 'continue' | 'stop';

export interface DispatcherDeps {
  /** The pool: the delivery task runs outside any request. */
  db: Knex;
  store: WebhookStore;
  secrets: WebhookSecrets;
  settings: WebhookSettings;
  clock: Clock;
  logger: Logger;
  /** The resolver of receivers' host names (tests give their own). */
  resolve?: Resolver;
  /** Told each recorded attempt's result (vexil_webhook_delivery_attempts_total). */
  onAttempt?: (result: 'delivered' | 'retrying' | 'failed') => void;
}

/** A promise that rejects when `signal` aborts, so waiting on something that cannot be cancelled is bounded. */
function bounded<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/**
 * Delivers outbox events. Every instance polls for work; each subscription's queue is drained by
 * one lane at a time on an instance, event after event as soon as the previous one succeeded,
 * and lanes of different subscriptions run side by side (at most `concurrency`), so a slow
 * receiver holds up only its own subscription. Across instances an event is attempted only
 * under its lease (one attempt at a time), and a queue's next event is taken only after its head
 * is settled, so each subscription's events go out in order. Failures retry with exponential
 * backoff and jitter until the event is older than the retry window.
 */
export class WebhookDispatcher {
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly agents: DeliveryAgents = deliveryAgents();
  private readonly resolve: Resolver;
  private stopped = false;

  constructor(private readonly deps: DispatcherDeps) {
    this.resolve = deps.resolve ?? systemResolver;
  }

  private get settings(): WebhookSettings {
    return this.deps.settings;
  }

  /** One poll: starts a lane for each subscription (and ping) with due work, without waiting for them. */
  async poll(): Promise<number> {
    if (this.stopped) return 0;
    const free = this.settings.concurrency - this.lanes.size;
    if (free <= 0) return 0;
    const work = await this.deps.store.dueWork(this.deps.db, this.deps.clock.now().toISOString(), this.settings.concurrency * 2);
    let started = 0;
    for (const item of work) {
      if (this.stopped || this.lanes.size >= this.settings.concurrency) break;
      const key = item.ping ? `ping:${item.ulid}` : item.webhook_ulid;
      if (this.lanes.has(key)) continue;
      const lane = (item.ping ? this.attemptPing(item.ulid) : this.drain(item.webhook_ulid))
        .catch((err: unknown) => this.deps.logger.error({ err, webhook: item.webhook_ulid }, 'webhook delivery lane failed'))
        .finally(() => this.lanes.delete(key));
      this.lanes.set(key, lane);
      started += 1;
    }
    return started;
  }

  /** Resolves when every lane running now (and any they lead to) has finished. */
  async idle(): Promise<void> {
    while (this.lanes.size > 0) await Promise.all(this.lanes.values());
  }

  /** Closes the kept-alive connections to receivers. */
  closeConnections(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** The background task: polls every `pollMs`; stopping lets attempts in flight finish. */
  task(): BackgroundTask {
    let timer: NodeJS.Timeout | undefined;
    let polling: Promise<unknown> | undefined;
    const tick = async () => {
      polling = this.poll().catch((err: unknown) => this.deps.logger.error({ err, task: 'webhook-delivery' }, 'background task failed'));
      await polling;
      polling = undefined;
      if (!this.stopped) timer = setTimeout(tick, this.settings.pollMs);
    };
    return {
      name: 'webhook-delivery',
      start: () => {
        this.stopped = false;
        timer = setTimeout(tick, this.settings.pollMs);
        timer.unref();
      },
      stop: async () => {
        this.stopped = true;
        if (timer) clearTimeout(timer);
        await polling;
        await this.idle();
        this.closeConnections();
      },
    };
  }

  /** Sends a subscription's events one after another while they succeed and are due. */
  private async drain(webhookUlid: string): Promise<void> {
    while (!this.stopped) {
      const event = await this.deps.store.queueHead(this.deps.db, webhookUlid, this.deps.clock.now().toISOString());
      if (!event || (await this.attempt(event)) === 'stop') return;
    }
  }

  private async attemptPing(ulid: string): Promise<void> {
    const event = await this.deps.store.dueEventByUlid(this.deps.db, ulid, this.deps.clock.now().toISOString());
    if (event) await this.attempt(event);
  }

  /** One attempt under a fresh claim; its result is recorded only while the claim still holds. */
  private async attempt(event: DueEvent): Promise<Next> {
    const token = randomUUID();
    if (!(await this.deps.store.claim(this.deps.db, event.ulid, token, this.settings.timeoutMs + leaseMarginMs))) return 'stop';
    const outcome = await this.send(event);
    const done = this.deps.clock.now();
    const attempts = event.attempts + 1;
    const expired = done.getTime() - Date.parse(event.created_at) >= this.settings.maxAgeMs;
    const status = outcome.ok ? 'delivered' : expired ? 'failed' : 'pending';
    const nextAttemptAt =
      status === 'pending' ? new Date(done.getTime() + retryDelayMs(attempts, this.settings.retryBaseMs)).toISOString() : null;
    const recorded = await this.deps.store.recordAttempt(
      this.deps.db,
      event,
      token,
      { status, code: outcome.code, error: outcome.error, durationMs: outcome.durationMs, nextAttemptAt, nowIso: done.toISOString() },
      this.settings.disableAfter,
    );
    if (!recorded) {
      // The lease ran out and another attempt took over, or the subscription was deleted meanwhile.
      this.deps.logger.warn({ webhookEvent: event.ulid }, 'webhook delivery result dropped: the event is no longer held by this attempt');
      return 'stop';
    }
    this.deps.onAttempt?.(status === 'pending' ? 'retrying' : status);
    if (!outcome.ok)
      this.deps.logger.warn({ webhookEvent: event.ulid, code: outcome.code, error: outcome.error, attempts }, 'webhook delivery failed');
    return status === 'pending' ? 'stop' : 'continue';
  }

  /**
   * The whole attempt (resolving the host, connecting, the answer and reading its body) runs
   * within the timeout, so it always ends well inside the lease.
   */
  private async send(event: DueEvent): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    const failed = (error: string): AttemptOutcome => ({ ok: false, code: null, error, durationMs: elapsed() });
    try {
      const url = parseWebhookUrl(event.url, this.settings);
      if (typeof url === 'string') return failed(url);
      // Checked at every attempt, and the connection goes only to the addresses checked.
      const addresses = await bounded(vetWebhookHost(hostOf(url), this.settings, this.resolve), signal);
      if (typeof addresses === 'string') return failed(addresses);
      const secret = await this.deps.secrets.open({ ulid: event.webhook_ulid, secret: event.secret, secret_sealed: event.secret_sealed });
      const now = this.deps.clock.now();
      const timestamp = Math.floor(now.getTime() / 1000);
      // During a rotation's grace period the previous secret signs too: Standard Webhooks lists
      // signatures separated by spaces, and a receiver accepts the message when one matches.
      const previous =
        event.previous_secret_sealed && event.previous_secret_until && event.previous_secret_until > now.toISOString()
          ? await this.deps.secrets.open({ ulid: event.webhook_ulid, secret: null, secret_sealed: event.previous_secret_sealed })
          : undefined;
      const signatures = [secret, ...(previous ? [previous] : [])].map((s) => signWebhook(s, event.ulid, timestamp, event.payload));
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Vexil-Webhooks',
        'webhook-id': event.ulid,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatures.join(' '),
      };
      const code = await postPinned(url, addresses, headers, event.payload, signal, this.agents);
      const ok = code >= 200 && code < 300;
      return { ok, code, error: ok ? null : `HTTP ${code}`, durationMs: elapsed() };
    } catch (error) {
      if (signal.aborted) return failed(`No response within ${this.settings.timeoutMs} ms.`);
      const cause = (error as { cause?: Error }).cause;
      return failed(cause?.message ?? (error as Error).message);
    }
  }
}
