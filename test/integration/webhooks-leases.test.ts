import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, TestClock, type TestApp } from '../support/test-app.js';
import { deliverAll, noDelivery, sleep, testDeliveries } from './webhook-fixtures.js';

// Two delivery tasks on one database, as two instances run them: one attempt at a time per
// event, and an attempt whose lease ran out cannot overwrite what a newer one recorded.
describeEachDatabase('webhook leases', (db) => {
  let app: TestApp;
  const projectKey = `leases-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const deliveries = testDeliveries(() => app);
  const { dispatcher } = deliveries;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  async function eventOf(webhookUlid: string): Promise<any> {
    return app.knex('webhook_events').where('webhook_ulid', webhookUlid).first();
  }

  async function subscribeAndChange(flagKey: string, url = deliveries.receiver.url): Promise<string> {
    const hook = await ok('POST', `${p}/webhooks`, { url, events: ['flag.created'] });
    await ok('POST', `${p}/flags`, { key: flagKey, name: flagKey, type: 'boolean' });
    return hook.ulid;
  }

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: { ...noDelivery, timeoutMs: 3_000, retryBaseMs: 20 } } });
    await ok('POST', '/projects', { key: projectKey, name: 'Leases' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('drops the late result of an attempt whose lease ran out and was taken over, so nothing is sent again', async () => {
    const hook = await subscribeAndChange('taken-over');
    // The first attempt's answer is slow and a failure; the second is a quick success.
    deliveries.receiver.answers = [{ status: 500, delayMs: 1_500 }, { status: 200 }];
    const stalled = dispatcher();
    const other = dispatcher();
    await stalled.poll();
    await deliveries.receiver.waitFor(() => deliveries.receiver.received.length === 1);
    // As if the first instance stalled past its lease: the lease runs out while it waits.
    await app.knex('webhook_events').where('webhook_ulid', hook).update({ locked_until: '2000-01-01T00:00:00.000Z' });
    await deliverAll(other);
    expect(await eventOf(hook)).toMatchObject({ status: 'delivered', last_status_code: 200 });

    // The stale attempt's 500 arrives now: it must not turn the delivered event back into a retry.
    await stalled.idle();
    expect(await eventOf(hook)).toMatchObject({ status: 'delivered', last_status_code: 200, attempts: 2, locked_until: null });
    expect((await app.knex('webhooks').where('ulid', hook).first()).consecutive_failures).toBe(0);
    await sleep(100);
    await deliverAll(stalled, 2);
    await deliverAll(other, 2);
    expect(deliveries.receiver.received.length).toBe(2);
  });

  it('keeps the lease in database time: an instance whose clock runs an hour ahead does not take it', async () => {
    const hook = await subscribeAndChange('skewed');
    deliveries.receiver.answers = [{ status: 200, delayMs: 1_000 }];
    const holder = dispatcher();
    const ahead = new TestClock();
    ahead.advance(3_600_000);
    const skewed = dispatcher({ clock: ahead });
    await holder.poll();
    await deliveries.receiver.waitFor(() => deliveries.receiver.received.length === 1);
    for (let i = 0; i < 8; i++) {
      await skewed.poll();
      await sleep(50);
    }
    await holder.idle();
    await skewed.idle();
    expect(deliveries.receiver.received.length).toBe(1);
    expect(await eventOf(hook)).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('bounds the whole attempt by the timeout, resolving the host included', async () => {
    // Saved while private hosts are allowed (nothing resolved then); delivered by an instance
    // that checks hosts, with a resolver that never answers.
    const hook = await subscribeAndChange('slow-dns', 'http://never-answers.example.test:9/hook');
    const hanging = dispatcher({
      settings: { allowPrivate: false, timeoutMs: 300 },
      resolve: () => new Promise(() => {}),
    });
    const started = performance.now();
    await deliverAll(hanging);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(2_000);
    const event = await eventOf(hook);
    expect(event).toMatchObject({ status: 'pending', attempts: 1, last_error: 'No response within 300 ms.', locked_until: null });
    expect(event.last_duration_ms).toBeGreaterThanOrEqual(290);
    expect(event.last_duration_ms).toBeLessThan(1_500);
  });
});
