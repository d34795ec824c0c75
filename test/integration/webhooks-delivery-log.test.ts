import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { purgeOldWebhookEvents } from '../../src/features/webhooks/retention.js';
import { WebhookStore } from '../../src/features/webhooks/store.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { deliverAll, labels, noDelivery, testDeliveries } from './webhook-fixtures.js';

// The delivery log (status, attempts, duration, order), pings, response bodies and retention,
// with the app's own delivery task off: each test drives a delivery task itself.
describeEachDatabase('webhook delivery log', (db) => {
  let app: TestApp;
  const projectKey = `log-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const deliveries = testDeliveries(() => app);
  const { dispatcher } = deliveries;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  const log = async (hook: string) => (await ok('GET', `${p}/webhooks/${hook}/deliveries`)) as Array<Record<string, any>>;

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: { ...noDelivery, timeoutMs: 2_000 } } });
    await ok('POST', '/projects', { key: projectKey, name: 'Log' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sends a ping at once, ahead of a backlog waiting for a failing receiver, and keeps the order of the rest', async () => {
    const hook = (await ok('POST', `${p}/webhooks`, { url: deliveries.receiver.url, events: ['flag.created'] })).ulid;
    for (const key of ['backlog-1', 'backlog-2']) await ok('POST', `${p}/flags`, { key, name: key, type: 'boolean' });
    // The receiver is down: the head waits a minute for its retry, the second event behind it.
    deliveries.receiver.answers = [{ status: 503 }];
    const slowRetries = dispatcher({ settings: { retryBaseMs: 60_000 } });
    await deliverAll(slowRetries);
    const ping = await ok('POST', `${p}/webhooks/${hook}/ping`);
    expect(ping).toMatchObject({ event_type: 'webhook.ping', sequence: null, status: 'pending' });
    await deliverAll(slowRetries);
    expect(deliveries.receiver.types()).toEqual(['flag.created', 'webhook.ping']);
    expect((await log(hook)).map((d) => [d.event_type, d.sequence, d.status, d.attempts])).toEqual([
      ['flag.created', 1, 'pending', 1],
      ['flag.created', 2, 'pending', 0],
      ['webhook.ping', null, 'delivered', 1],
    ]);

    // When the head's retry comes, the backlog follows it, in order.
    await app
      .knex('webhook_events')
      .where('webhook_ulid', hook)
      .where('status', 'pending')
      .update({ next_attempt_at: '2000-01-01T00:00:00.000Z' });
    await deliverAll(slowRetries);
    expect(labels(deliveries.receiver.received)).toEqual(['backlog-1', deliveries.receiver.url, 'backlog-1', 'backlog-2']);
    expect((await log(hook)).map((d) => [d.sequence, d.status, d.attempts])).toEqual([
      [1, 'delivered', 2],
      [2, 'delivered', 1],
      [null, 'delivered', 1],
    ]);
  });

  it('records how long each attempt took, failed ones included', async () => {
    const hook = (await ok('POST', `${p}/webhooks`, { url: deliveries.receiver.url, events: ['flag.created'] })).ulid;
    await ok('POST', `${p}/flags`, { key: 'timed', name: 'Timed', type: 'boolean' });
    deliveries.receiver.answers = [
      { status: 500, delayMs: 300 },
      { status: 204, delayMs: 150 },
    ];
    const d = dispatcher({ settings: { retryBaseMs: 1 } });
    await deliverAll(d);
    const [failed] = await log(hook);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500' });
    expect(failed!.last_duration_ms).toBeGreaterThanOrEqual(290);
    expect(failed!.last_duration_ms).toBeLessThan(2_000);
    await deliverAll(d);
    const [delivered] = await log(hook);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 204, last_error: null, next_attempt_at: null });
    expect(delivered!.last_duration_ms).toBeGreaterThanOrEqual(140);
    expect(delivered!.last_duration_ms).toBeLessThan(failed!.last_duration_ms);
    expect(Date.parse(delivered!.delivered_at)).toBeGreaterThan(Date.parse(delivered!.created_at) - 1);
  });

  it('reads at most a few kilobytes of a response body, then drops the connection', async () => {
    let written = 0;
    let closedEarly = false;
    // A receiver that answers 200 and then streams without end.
    const flood = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16_384, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => (closedEarly = !res.writableFinished));
      pump();
    });
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(flood.address() as AddressInfo).port}/hook`;
      const hook = (await ok('POST', `${p}/webhooks`, { url, events: ['flag.created'] })).ulid;
      await ok('POST', `${p}/flags`, { key: 'flooded', name: 'Flooded', type: 'boolean' });
      const started = performance.now();
      await deliverAll(dispatcher());
      expect(performance.now() - started).toBeLessThan(1_500);
      expect((await log(hook))[0]).toMatchObject({ status: 'delivered', last_status_code: 200 });
      for (let i = 0; i < 50 && !closedEarly; i++) await new Promise((r) => setTimeout(r, 20));
      expect(closedEarly).toBe(true);
      // Socket buffers take some; nothing like an endless stream was read.
      expect(written).toBeLessThan(8 * 1024 * 1024);
    } finally {
      flood.closeAllConnections();
      flood.close();
    }
  });

  it('deletes delivered and failed events after the retention period, never waiting ones', async () => {
    const hook = (await ok('POST', `${p}/webhooks`, { url: deliveries.receiver.url, events: ['flag.created'] })).ulid;
    for (const key of ['kept-1', 'kept-2', 'kept-3']) await ok('POST', `${p}/flags`, { key, name: key, type: 'boolean' });
    // The first is delivered, the second fails and waits for a retry a minute later, the third
    // waits behind it; the second is then given up (as after 24 hours of retries).
    deliveries.receiver.answers = [{ status: 200 }, { status: 500 }];
    await deliverAll(dispatcher({ settings: { retryBaseMs: 60_000 } }));
    const rows = await app.knex('webhook_events').where('webhook_ulid', hook).orderBy('sequence').select('ulid', 'status');
    expect(rows[0].status).toBe('delivered');
    await app.knex('webhook_events').where('ulid', rows[1].ulid).update({ status: 'failed', next_attempt_at: null });
    const store = new WebhookStore(app.composition.core.dialect);

    expect(await purgeOldWebhookEvents(store, app.knex, app.clock, 30)).toBe(0);
    const later = { now: () => new Date(app.clock.now().getTime() + 31 * 86_400_000) };
    expect(await purgeOldWebhookEvents(store, app.knex, later, 0)).toBe(0);
    // In batches of one, so the loop over batches runs too; earlier tests' settled events go as well.
    expect(await purgeOldWebhookEvents(store, app.knex, later, 30, 1)).toBeGreaterThanOrEqual(2);
    expect((await log(hook)).map((d) => [d.sequence, d.status])).toEqual([[3, 'pending']]);
    expect(await app.knex('webhook_events').whereNot('status', 'pending').count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});
