import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import type { BackgroundTask } from '../core.js';
import type { EnvironmentRevision } from './config-source.js';

/**
 * Tells the other instances that environment revisions moved, so they rebuild their snapshots at
 * once instead of at their next poll. Polling stays on either way: a lost message only delays a
 * change until the next poll.
 */
export interface ChangeNotifier extends BackgroundTask {
  publish(changed: readonly EnvironmentRevision[]): void;
  /** Called with the revisions another instance announced. */
  onChange(listener: (changed: EnvironmentRevision[]) => void): void;
  /** Whether announcements go through Redis now (both of its clients ready); absent without Redis. */
  connected?(): boolean;
}

/** No Redis configured: every instance relies on polling alone. */
export function pollingOnly(): ChangeNotifier {
  return { name: 'change-notifier', start() {}, async stop() {}, publish() {}, onChange() {} };
}

/** The part of node-redis's client the notifier uses. */
interface PubSubClient {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  duplicate(): PubSubClient;
  close(): Promise<void>;
  destroy(): void;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

interface Message {
  from: string;
  changed: EnvironmentRevision[];
}

export const REVISION_CHANNEL = 'vexil:environment-revisions';

/**
 * Publishes sent but not yet answered beyond which further ones are skipped: a Redis that does not
 * answer (frozen, partitioned) would otherwise queue every change in memory until it does.
 */
const MAX_UNANSWERED_PUBLISHES = 100;
/** How long stopping waits for a client to close before dropping its connection. */
const CLOSE_WAIT_MS = 500;

/** Closes `client`, or drops its connection if Redis does not answer the close within CLOSE_WAIT_MS. */
async function closeWithin(client: PubSubClient): Promise<void> {
  if (!client.isReady) {
    client.destroy();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), CLOSE_WAIT_MS);
  });
  const outcome = await Promise.race([client.close().catch(() => 'late' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late' || client.isOpen) client.destroy();
}

/**
 * Redis publish/subscribe (REDIS_URL): each instance publishes the revisions it saw move and
 * subscribes to the others'. Nothing waits on Redis: a publish is sent and forgotten (at most
 * MAX_UNANSWERED_PUBLISHES unanswered at once), and stopping lets a frozen Redis go after a short
 * wait. While Redis is unreachable, publishing is skipped (no offline queue) and the clients
 * reconnect in the background; the error is logged once per outage.
 */
export function redisNotifier(url: string, logger: Logger, channel = REVISION_CHANNEL): ChangeNotifier {
  const instance = randomUUID();
  const listeners: Array<(changed: EnvironmentRevision[]) => void> = [];
  let publisher: PubSubClient | undefined;
  let subscriber: PubSubClient | undefined;
  let reportedOutage = false;
  let unanswered = 0;

  const onError = (error: unknown) => {
    if (reportedOutage) return;
    reportedOutage = true;
    logger.warn({ err: error }, 'Redis change notifications unavailable; polling continues');
  };
  const onMessage = (raw: string) => {
    let message: Message;
    try {
      message = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if (message.from === instance || !Array.isArray(message.changed)) return;
    for (const listener of listeners) listener(message.changed);
  };

  return {
    name: 'change-notifier',
    start() {
      if (publisher) return;
      publisher = createClient({
        url,
        disableOfflineQueue: true,
        socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5000) },
      }) as unknown as PubSubClient;
      subscriber = publisher.duplicate();
      for (const client of [publisher, subscriber]) client.on('error', onError);
      const sub = subscriber;
      publisher.connect().catch(onError);
      sub
        .connect()
        .then(() => sub.subscribe(channel, onMessage))
        .then(() => {
          reportedOutage = false;
          logger.info({ channel }, 'Redis connected: changes are announced to the other instances');
        })
        .catch(onError);
    },
    async stop() {
      const clients = [subscriber, publisher];
      publisher = undefined;
      subscriber = undefined;
      for (const client of clients) if (client) await closeWithin(client);
    },
    publish(changed) {
      if (!publisher?.isReady || changed.length === 0 || unanswered >= MAX_UNANSWERED_PUBLISHES) return;
      const message: Message = { from: instance, changed: [...changed] };
      unanswered += 1;
      publisher
        .publish(channel, JSON.stringify(message))
        .catch(onError)
        .finally(() => {
          unanswered -= 1;
        });
    },
    onChange(listener) {
      listeners.push(listener);
    },
    connected() {
      return publisher?.isReady === true && subscriber?.isReady === true;
    },
  };
}
