import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fastWebhooks, labels, sleep } from './webhook-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

// An event is retried with growing waits for VEXIL_WEBHOOK_MAX_AGE_MS, then given up as failed,
// and the subscription's next event follows it. The window is shortened to a second and a half; the
// subscription is never disabled here (the failures in a row stay below the limit).
const webhookSettings: Config['webhooks'] = { ...fastWebhooks, retryBaseMs: 40, maxAgeMs: 1_500, disableAfter: 1_000 };

describeEachDatabase('webhook expiry', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `expiry-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: webhookSettings } });
    await ok('POST', '/projects', { key: projectKey, name: 'Expiry' });
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('gives an event up as failed once it is older than the maximum age, then delivers the next one', async () => {
    // This receiver never accepts the first event, and accepts every other.
    receiver.answerFor = (delivery) => (labels([delivery])[0] === 'doomed' ? { status: 500 } : undefined);
    const hook = (await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.created'] })).ulid;
    await ok('POST', `${p}/flags`, { key: 'doomed', name: 'Doomed', type: 'boolean' });
    await ok('POST', `${p}/flags`, { key: 'next', name: 'Next', type: 'boolean' });

    await receiver.waitFor(() => labels(receiver.received).includes('next'), 15_000);
    await sleep(200);
    const arrivals = labels(receiver.received);
    const tries = arrivals.filter((label) => label === 'doomed').length;
    // Every attempt of the first event came before the second event, which came once.
    expect(arrivals).toEqual([...Array<string>(tries).fill('doomed'), 'next']);
    expect(tries).toBeGreaterThanOrEqual(3);

    let log = (await ok('GET', `${p}/webhooks/${hook}/deliveries`)) as Array<Record<string, any>>;
    for (let i = 0; i < 100 && log[1]?.status !== 'delivered'; i++) {
      await sleep(20);
      log = await ok('GET', `${p}/webhooks/${hook}/deliveries`);
    }
    const [doomed, next] = log;
    expect(doomed).toMatchObject({
      sequence: 1,
      status: 'failed',
      attempts: tries,
      last_status_code: 500,
      last_error: 'HTTP 500',
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(next).toMatchObject({ sequence: 2, status: 'delivered', attempts: 1, last_status_code: 200 });

    // Retried within the window, given up only past it: the attempt before the last one was
    // made while the event was younger than the maximum age, the next event only after it.
    const created = Date.parse(doomed!.created_at);
    const at = receiver.received.map((r) => r.at);
    expect(at[tries - 2]! - created).toBeLessThan(webhookSettings.maxAgeMs);
    expect(at[tries]! - created).toBeGreaterThanOrEqual(webhookSettings.maxAgeMs);
    // Each wait is at least half of the doubled one (the jitter's lower bound).
    for (let k = 1; k < tries; k++) {
      expect(at[k]! - at[k - 1]!).toBeGreaterThanOrEqual((webhookSettings.retryBaseMs * 2 ** (k - 1)) / 2);
    }
    // A failure given up is not a run of failures any more once the next delivery succeeds.
    expect(await ok('GET', `${p}/webhooks/${hook}`)).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });
});
