import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signWebhook } from '../../src/features/webhooks/signing.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fastWebhooks } from './webhook-fixtures.js';
import { WebhookReceiver, type ReceivedDelivery } from './webhook-receiver.js';

/** Whether a delivery verifies with a secret under the Standard Webhooks library (any of its signatures). */
function verifies(secret: string, delivery: ReceivedDelivery): boolean {
  try {
    new Webhook(secret).verify(delivery.body, {
      'webhook-id': delivery.id,
      'webhook-timestamp': delivery.timestamp,
      'webhook-signature': delivery.signature,
    });
    return true;
  } catch {
    return false;
  }
}

/** The signature a secret gives a delivery, as Vexil computes it. */
const signatureOf = (secret: string, delivery: ReceivedDelivery) =>
  signWebhook(secret, delivery.id, Number(delivery.timestamp), delivery.body);

// Signing-secret rotation: a new secret, and a grace period in which both sign every delivery.
describeEachDatabase('webhook secret rotation', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `rotation-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  /** Pings the subscription and returns the delivery the receiver got. */
  async function ping(webhookUlid: string): Promise<ReceivedDelivery> {
    const before = receiver.received.length;
    await ok('POST', `${p}/webhooks/${webhookUlid}/ping`);
    await receiver.waitFor(() => receiver.received.length === before + 1, 30_000);
    return receiver.received[before] as ReceivedDelivery;
  }

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: fastWebhooks } });
    receiver = await new WebhookReceiver().start();
    await ok('POST', '/projects', { key: projectKey, name: 'Rotation' });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('returns a new secret once; during the grace period each delivery carries both signatures', async () => {
    const hook = await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.*'] });
    const first = await ping(hook.ulid);
    expect(first.signature.split(' ')).toHaveLength(1);
    expect(verifies(hook.secret, first)).toBe(true);

    // No body: the default grace period of a day.
    const rotated = await app.mgmt('POST', `${p}/webhooks/${hook.ulid}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const { secret, previous_secret_expires_at: until } = rotated.body.data as { secret: string; previous_secret_expires_at: string };
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.secret);
    const expected = app.clock.now().getTime() + 86_400_000;
    expect(Math.abs(new Date(until).getTime() - expected)).toBeLessThan(60_000);

    const during = await ping(hook.ulid);
    // `v1,<new> v1,<previous>`: a receiver on either secret accepts it.
    expect(during.signature.split(' ')).toEqual([signatureOf(secret, during), signatureOf(hook.secret, during)]);
    expect(verifies(secret, during)).toBe(true);
    expect(verifies(hook.secret, during)).toBe(true);
    expect(verifies('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', during)).toBe(false);

    // After the grace period only the new secret signs.
    app.clock.advance(86_400_000 + 60_000);
    try {
      const after = await ping(hook.ulid);
      expect(after.signature).toBe(signatureOf(secret, after));
    } finally {
      app.clock.advance(-(86_400_000 + 60_000));
    }

    // The row holds neither secret in clear, and the audit entry records no secret.
    const row = await app.knex('webhooks').where('ulid', hook.ulid).first();
    const clear = JSON.stringify(row);
    for (const s of [secret, hook.secret]) expect(clear).not.toContain(s.replace(/^whsec_/, ''));
    const entries = (await ok('GET', `/audit-logs?subject_ulid=${hook.ulid}&action=webhook.secret_rotated`)) as Array<{ changes: unknown }>;
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries[0]?.changes)).not.toContain('whsec_');
    expect(entries[0]?.changes).toEqual({ after: { previous_secret_expires_at: until } });
  });

  it('ends the previous secret at once with a grace period of 0, and keeps only the replaced one on a second rotation', async () => {
    const hook = await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.*'] });
    const immediate = await ok('POST', `${p}/webhooks/${hook.ulid}/rotate-secret`, { grace_period_seconds: 0 });
    expect(immediate.previous_secret_expires_at).toBeNull();
    const alone = await ping(hook.ulid);
    expect(alone.signature).toBe(signatureOf(immediate.secret, alone));
    expect(verifies(hook.secret, alone)).toBe(false);

    const second = await ok('POST', `${p}/webhooks/${hook.ulid}/rotate-secret`, { grace_period_seconds: 3600 });
    const third = await ok('POST', `${p}/webhooks/${hook.ulid}/rotate-secret`, { grace_period_seconds: 3600 });
    const delivery = await ping(hook.ulid);
    expect(delivery.signature.split(' ')).toEqual([signatureOf(third.secret, delivery), signatureOf(second.secret, delivery)]);
    expect(verifies(immediate.secret, delivery)).toBe(false);
  });

  it('refuses a grace period outside 0..604800 and unknown members with 422, an unknown subscription with 404, and changes nothing', async () => {
    const hook = await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.*'] });
    const before = await app.knex('webhooks').where('ulid', hook.ulid).first('secret_sealed', 'previous_secret_sealed');
    for (const body of [
      { grace_period_seconds: -1 },
      { grace_period_seconds: 604_801 },
      { grace_period_seconds: 1.5 },
      { secret: 'mine' },
    ]) {
      const refused = await app.mgmt('POST', `${p}/webhooks/${hook.ulid}/rotate-secret`, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    expect((await app.mgmt('POST', `${p}/webhooks/whk_01ARZ3NDEKTSV4RRFFQ69G5FAV/rotate-secret`)).status).toBe(404);
    expect(await app.knex('webhooks').where('ulid', hook.ulid).first('secret_sealed', 'previous_secret_sealed')).toEqual(before);
    // The longest grace period is accepted.
    expect((await app.mgmt('POST', `${p}/webhooks/${hook.ulid}/rotate-secret`, { grace_period_seconds: 604_800 })).status).toBe(200);
  });
});
