/** Helpers of the webhook suites: settings, and delivery tasks built beside an app's own. */
import pino from 'pino';
import { afterEach, beforeEach } from 'vitest';
import type { Clock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import { WebhookDispatcher } from '../../src/features/webhooks/dispatcher.js';
import { WebhookSecrets } from '../../src/features/webhooks/secrets.js';
import { WebhookStore } from '../../src/features/webhooks/store.js';
import type { Resolver } from '../../src/features/webhooks/url-guard.js';
import type { TestApp } from '../support/test-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * Fast settings for tests; private addresses and http allowed (the receiver is local). The
 * timeout is generous: on a loaded machine an answer read late would count as a failure, and the
 * event would be sent again.
 */
export const fastWebhooks: Config['webhooks'] = {
  allowHttp: true,
  allowPrivate: true,
  pollMs: 30,
  timeoutMs: 5_000,
  retryBaseMs: 40,
  maxAgeMs: 60_000,
  disableAfter: 4,
  concurrency: 8,
  retentionDays: 30,
};

/** Settings of an app whose own delivery task never runs during a test (its dispatchers are the test's). */
export const noDelivery: Config['webhooks'] = { ...fastWebhooks, pollMs: 3_600_000 };

/** Another delivery task on the app's database, as a second instance would run it. */
export function dispatcherFor(
  app: TestApp,
  options: { settings?: Partial<Config['webhooks']>; clock?: Clock; resolve?: Resolver } = {},
): WebhookDispatcher {
  const { knex, dialect, config } = app.composition.core;
  const clock = options.clock ?? app.clock;
  const store = new WebhookStore(dialect);
  return new WebhookDispatcher({
    db: knex,
    store,
    secrets: new WebhookSecrets(store, knex, config.secretKeys, clock),
    settings: { ...config.webhooks, pollMs: 30, ...options.settings },
    clock,
    logger: pino({ level: 'silent' }),
    resolve: options.resolve,
  });
}

/** Polls until the dispatcher has nothing more to do right now. */
export async function deliverAll(dispatcher: WebhookDispatcher, rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await dispatcher.poll();
    await dispatcher.idle();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The subject label of every delivery a receiver got, in arrival order. */
export function labels(received: Array<{ body: string }>): string[] {
  return received.map((r) => (JSON.parse(r.body) as { data: { subject: { label: string } } }).data.subject.label);
}

/**
 * For suites that drive delivery tasks themselves: a receiver started afresh for each test, and
 * the tasks a test builds with `dispatcher`, each left to finish its attempts and closed after
 * the test. Call it inside the suite's describe block.
 */
export function testDeliveries(appOf: () => TestApp) {
  let receiver: WebhookReceiver;
  let dispatchers: WebhookDispatcher[] = [];
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterEach(async () => {
    for (const d of dispatchers) {
      await d.idle();
      d.closeConnections();
    }
    dispatchers = [];
    await receiver.close();
  });
  return {
    /** This test's receiver. */
    get receiver(): WebhookReceiver {
      return receiver;
    },
    /** A delivery task of the app's database (see dispatcherFor), closed after the test. */
    dispatcher(options?: Parameters<typeof dispatcherFor>[1]): WebhookDispatcher {
      const d = dispatcherFor(appOf(), options);
      dispatchers.push(d);
      return d;
    },
  };
}
