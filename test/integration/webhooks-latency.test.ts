import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fastWebhooks } from './webhook-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

// Deliveries run beside requests, never inside them: management requests take as long with a
// receiver that answers in 2 s as with one that answers at once. Measured in one run, batches
// alternating between the two, so load on the machine weighs on both alike.
describeEachDatabase('webhook deliveries and management latency', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `latency-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: { ...fastWebhooks, timeoutMs: 5_000 } } });
    receiver = await new WebhookReceiver().start();
    await ok('POST', '/projects', { key: projectKey, name: 'Latency' });
    await ok('POST', `${p}/flags`, { key: 'timed', name: 'Timed', type: 'boolean' });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('does not slow management requests down when the receiver is slow (measured against a fast one)', async () => {
    // Three subscriptions, so deliveries are in flight while requests are timed.
    for (let i = 0; i < 3; i++) await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.updated'] });
    const timings = { fast: [] as number[], slow: [] as number[] };
    for (let batch = 0; batch < 6; batch++) {
      const mode = batch % 2 === 0 ? 'fast' : 'slow';
      receiver.answers = Array.from({ length: 100 }, () => (mode === 'slow' ? { status: 200, delayMs: 2_000 } : { status: 200 }));
      if (mode === 'slow') {
        // The slow receiver is holding a delivery before the first timed request.
        const held = receiver.received.length;
        await ok('PUT', `${p}/flags/timed`, { name: `warm ${batch}`, permanent: false });
        await receiver.waitFor(() => receiver.received.length > held, 5_000);
      }
      for (let i = 0; i < 6; i++) {
        const started = performance.now();
        await ok('PUT', `${p}/flags/timed`, { name: `${mode} ${batch}.${i}`, permanent: false });
        timings[mode].push(performance.now() - started);
      }
    }
    const fast = median(timings.fast);
    const slow = median(timings.slow);
    const detail = JSON.stringify({ fast, slow, timings });
    // A request that waited for a delivery would take 2 s or more.
    expect(slow, detail).toBeLessThan(fast * 3 + 100);
    expect(slow, detail).toBeLessThan(1_000);
  });
});
