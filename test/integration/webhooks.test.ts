import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fastWebhooks } from './webhook-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

// Two seconds to answer, so the retry test can let one attempt time out.
const webhookSettings: Config['webhooks'] = { ...fastWebhooks, timeoutMs: 2_000 };

describeEachDatabase('webhooks', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `hooks-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;

  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  async function subscribe(body: Record<string, unknown> = {}): Promise<{ ulid: string; secret: string }> {
    return ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['*'], ...body });
  }

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: webhookSettings } });
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Hooks',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
  });
  beforeEach(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('signs each change event with the subscription secret, verified by the Standard Webhooks library', async () => {
    const hook = await subscribe({ events: ['flag.created', 'flag.updated'] });
    expect(hook.secret).toMatch(/^whsec_/);
    const listed = await ok('GET', `${p}/webhooks/${hook.ulid}`);
    expect(listed).not.toHaveProperty('secret');

    await ok('POST', `${p}/flags`, { key: 'signed-flag', name: 'Signed', type: 'boolean' });
    await receiver.waitFor(() => receiver.received.length === 1);
    const delivery = receiver.received[0]!;
    const payload = new Webhook(hook.secret).verify(delivery.body, {
      'webhook-id': delivery.id,
      'webhook-timestamp': delivery.timestamp,
      'webhook-signature': delivery.signature,
    }) as { type: string; data: Record<string, any> };
    expect(payload.type).toBe('flag.created');
    expect(payload.data.project).toMatchObject({ key: projectKey });
    expect(payload.data.subject).toMatchObject({ type: 'flag', label: 'signed-flag' });
    expect(payload.data.actor).toMatchObject({ type: 'account', name: 'Test Owner' });
    expect(delivery.id).toMatch(/^whe_/);

    // The receiver has it; the delivery task records it right after.
    let log = await app.mgmt('GET', `${p}/webhooks/${hook.ulid}/deliveries`);
    for (let i = 0; i < 100 && log.body.data[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      log = await app.mgmt('GET', `${p}/webhooks/${hook.ulid}/deliveries`);
    }
    expect(log.body.data).toEqual([
      expect.objectContaining({ ulid: delivery.id, event_type: 'flag.created', status: 'delivered', attempts: 1, last_status_code: 200 }),
    ]);
    await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
    await receiver.close();
  });

  it('writes no event for a change that was refused, and none for event types not subscribed', async () => {
    const hook = await subscribe({ events: ['flag.deleted'] });
    const refused = await app.mgmt('POST', `${p}/flags`, { key: 'signed-flag', name: 'Again', type: 'boolean' });
    expect(refused.status).toBe(422);
    await ok('POST', `${p}/flags`, { key: 'quiet-flag', name: 'Quiet', type: 'boolean' });
    const rows = await app.knex('webhook_events').where('webhook_ulid', hook.ulid);
    expect(rows).toEqual([]);
    await ok('DELETE', `${p}/flags/quiet-flag`);
    await receiver.waitFor(() => receiver.received.length === 1);
    expect(receiver.types()).toEqual(['flag.deleted']);
    await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
    await receiver.close();
  });

  it('retries after a 500 and after a timeout, and keeps each subscription in order', async () => {
    const hook = await subscribe({ events: ['flag.created'] });
    receiver.answers = [{ status: 500 }, { status: 200, delayMs: 2_500 }];
    for (const key of ['order-1', 'order-2', 'order-3']) await ok('POST', `${p}/flags`, { key, name: key, type: 'boolean' });
    await receiver.waitFor(() => receiver.received.length >= 5, 20_000);
    await new Promise((r) => setTimeout(r, 300));
    const keys = receiver.received.map((r) => (JSON.parse(r.body) as { data: { subject: { label: string } } }).data.subject.label);
    // First attempt refused (500), second timed out, then the same event again and the rest in order.
    expect(keys).toEqual(['order-1', 'order-1', 'order-1', 'order-2', 'order-3']);
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids.slice(0, 3)).size).toBe(1);
    const log = (await ok('GET', `${p}/webhooks/${hook.ulid}/deliveries`)) as Array<{ attempts: number; status: string }>;
    expect(log.map((d) => [d.status, d.attempts])).toEqual([
      ['delivered', 3],
      ['delivered', 1],
      ['delivered', 1],
    ]);
    await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
    await receiver.close();
  });

  it('filters by environment, and always delivers events about no environment', async () => {
    const hook = await subscribe({ events: ['target.created', 'target.cloned', 'flag.updated'], environments: ['production'] });
    await ok('POST', `${p}/flags/order-1/environments/staging/targets`);
    await ok('POST', `${p}/flags/order-1/environments/production/targets`);
    await ok('PUT', `${p}/flags/order-1`, { name: 'Renamed', permanent: false });
    await receiver.waitFor(() => receiver.received.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    const events = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { environment: { key: string } | null } });
    expect(events.map((e) => [e.type, e.data.environment?.key ?? null])).toEqual([
      ['target.created', 'production'],
      ['flag.updated', null],
    ]);
    await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
    await receiver.close();
  });

  it('disables a subscription after a run of failures, says why, and resumes when enabled again', async () => {
    const hook = await subscribe({ events: ['webhook.ping'] });
    receiver.answers = Array.from({ length: 4 }, () => ({ status: 503 }));
    const ping = await ok('POST', `${p}/webhooks/${hook.ulid}/ping`);
    expect(ping).toMatchObject({ event_type: 'webhook.ping', status: 'pending', attempts: 0 });
    await receiver.waitFor(() => receiver.received.length === 4, 15_000);
    let state: any;
    for (let i = 0; i < 100; i++) {
      state = await ok('GET', `${p}/webhooks/${hook.ulid}`);
      if (!state.enabled) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(state).toMatchObject({
      enabled: false,
      consecutive_failures: 4,
      disabled_reason: 'Disabled after 4 failed deliveries in a row.',
    });

    const enabled = await ok('PUT', `${p}/webhooks/${hook.ulid}`, { url: receiver.url, events: ['webhook.ping'], enabled: true });
    expect(enabled).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null });
    await receiver.waitFor(() => receiver.received.length === 5);
    const again = await ok('POST', `${p}/webhooks/${hook.ulid}/deliveries/${ping.ulid}/redeliver`);
    expect(again.ulid).not.toBe(ping.ulid);
    await receiver.waitFor(() => receiver.received.length === 6);
    expect(receiver.received[5]!.id).toBe(again.ulid);
    await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
    await receiver.close();
  });

  it('refuses bad subscriptions with field errors and writes nothing', async () => {
    const res = await app.mgmt('POST', `${p}/webhooks`, { url: 'ftp://example.test/hook', events: ['*'] });
    expect(res.status).toBe(422);
    // The document states the form (http or https); a setting refuses the rest with its own code.
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.url).toHaveLength(1);
    const unknownEvent = await app.mgmt('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.exploded'] });
    expect(unknownEvent.status).toBe(422);
    // Only families that exist can be patterns.
    expect((await app.mgmt('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.cr*'] })).status).toBe(422);
    const unknownEnvironment = await app.mgmt('POST', `${p}/webhooks`, {
      url: receiver.url,
      events: ['*'],
      environments: ['production', 'qa', 'staging', 'dev'],
    });
    expect(unknownEnvironment.status).toBe(422);
    expect(unknownEnvironment.body.errors).toEqual({
      'environments.1': ['Environment "qa" does not exist in this project.'],
      'environments.3': ['Environment "dev" does not exist in this project.'],
    });
    const hook = await subscribe({ events: ['*'], environments: ['production'] });
    const renamed = await app.mgmt('PUT', `${p}/webhooks/${hook.ulid}`, { url: receiver.url, events: ['*'], environments: ['qa'] });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors).toEqual({ 'environments.0': ['Environment "qa" does not exist in this project.'] });
    expect((await ok('GET', `${p}/webhooks/${hook.ulid}`)).environments).toEqual(['production']);
    await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
    expect(await app.knex('webhooks').where('url', 'ftp://example.test/hook')).toEqual([]);
    await receiver.close();
  });
});

describeEachDatabase('webhooks with two instances', (db) => {
  let first: TestApp;
  let second: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const database = await db.create();
    // A generous timeout: on a loaded machine an answer read late would be retried, and sent twice.
    const config = { webhooks: { ...webhookSettings, timeoutMs: 5_000 } };
    first = await startTestApp(db, { config, databaseUrl: database.url, keepDatabase: true });
    second = await startTestApp(db, { config, databaseUrl: database.url, keepDatabase: true });
    receiver = await new WebhookReceiver().start();
    (second as TestApp & { dropDatabase?: () => Promise<void> }).dropDatabase = database.drop;
  });
  afterAll(async () => {
    await receiver?.close();
    await first?.close();
    await second?.close();
    await (second as TestApp & { dropDatabase?: () => Promise<void> }).dropDatabase?.();
  });

  it('delivers every event exactly once, in order', async () => {
    const key = `two-${Date.now().toString(36)}`;
    expect((await first.mgmt('POST', '/projects', { key, name: 'Two' })).status).toBe(200);
    const hook = await first.mgmt('POST', `/projects/${key}/webhooks`, { url: receiver.url, events: ['flag.created'] });
    expect(hook.status).toBe(200);
    const keys = Array.from({ length: 12 }, (_, i) => `flag-${String(i).padStart(2, '0')}`);
    for (const [i, flagKey] of keys.entries()) {
      const app = i % 2 === 0 ? first : second;
      expect((await app.mgmt('POST', `/projects/${key}/flags`, { key: flagKey, name: flagKey, type: 'boolean' })).status).toBe(200);
    }
    await receiver.waitFor(() => receiver.received.length >= keys.length);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.length).toBe(keys.length);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(keys.length);
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { data: { subject: { label: string } } }).data.subject.label)).toEqual(keys);
  });
});
