import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { secretKey } from '../../src/auth/secret-box.js';
import { generateWebhookSecret } from '../../src/features/webhooks/signing.js';
import { newId } from '../../src/ids.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { deliverAll, dispatcherFor, fastWebhooks, noDelivery } from './webhook-fixtures.js';
import { WebhookReceiver, type ReceivedDelivery } from './webhook-receiver.js';

function verify(secret: string, delivery: ReceivedDelivery): { type: string } {
  return new Webhook(secret).verify(delivery.body, {
    'webhook-id': delivery.id,
    'webhook-timestamp': delivery.timestamp,
    'webhook-signature': delivery.signature,
  }) as { type: string };
}

// Signing secrets are stored encrypted (AES-256-GCM) and no statement ever carries one in clear,
// so neither a copy of the table nor a logged database error reveals one.
describeEachDatabase('webhook secrets at rest', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let database: { url: string; drop(): Promise<void> };
  const projectKey = `secrets-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  beforeAll(async () => {
    database = await db.create();
    app = await startTestApp(db, { config: { webhooks: fastWebhooks }, databaseUrl: database.url, keepDatabase: true });
    receiver = await new WebhookReceiver().start();
    await ok('POST', '/projects', { key: projectKey, name: 'Secrets' });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
    await database?.drop();
  });

  it('stores the secret sealed, not in clear, and deliveries still verify with the Standard Webhooks library', async () => {
    const statements: string[] = [];
    const record = (query: { sql: string; bindings?: unknown[] }) =>
      statements.push(`${query.sql} ${JSON.stringify(query.bindings ?? [])}`);
    app.knex.on('query', record);
    const hook = await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.created', 'flag.updated'] });
    await ok('PUT', `${p}/webhooks/${hook.ulid}`, { url: receiver.url, events: ['flag.created', 'flag.updated'], description: 'Renamed' });
    await ok('POST', `${p}/flags`, { key: 'sealed', name: 'Sealed', type: 'boolean' });
    await receiver.waitFor(() => receiver.received.length === 1);
    app.knex.off('query', record);

    const secretBody = (hook.secret as string).replace(/^whsec_/, '');
    const row = await app.knex('webhooks').where('ulid', hook.ulid).first();
    expect(row.secret).toBe('');
    expect(row.secret_sealed).toMatch(/^v1\.[0-9a-f]{16}\./);
    expect(JSON.stringify(row)).not.toContain(secretBody);
    // Neither the creation, nor the update (which leaves the secret alone), nor a delivery
    // sent the clear secret to the database.
    expect(statements.length).toBeGreaterThan(5);
    expect(statements.filter((s) => s.includes(secretBody))).toEqual([]);
    expect(statements.filter((s) => /^update [`"]webhooks[`"]/i.test(s) && s.includes('secret'))).toEqual([]);
    expect(verify(hook.secret, receiver.received[0]!).type).toBe('flag.created');
    await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
  });

  it('keeps the values of a failed statement out of its error', async () => {
    const sentinel = `whsec_${randomBytes(12).toString('hex')}`;
    const failed = await app
      .knex('webhooks')
      .insert({
        ulid: newId('webhook'),
        project_ulid: 'prj_missing',
        url: 'https://example.test',
        events: '[]',
        environments: '[]',
        enabled: true,
        secret: sentinel,
        created_at: 'x',
        updated_at: 'x',
      })
      .then(
        () => undefined,
        (error: unknown) => error as Error & Record<string, unknown>,
      );
    expect(failed).toBeInstanceOf(Error);
    const text = `${failed!.message} ${failed!.stack} ${JSON.stringify(failed)}`;
    expect(text).toMatch(/insert into/i);
    expect(text).not.toContain(sentinel);
  });

  it('seals secrets stored in clear before encryption, and re-seals everything under VEXIL_SECRET_KEY', async () => {
    // A subscription as an older version stored it: the secret in clear.
    const legacySecret = generateWebhookSecret();
    const project = await app.knex('projects').where('key', projectKey).first('ulid');
    const legacy = newId('webhook');
    const now = new Date().toISOString();
    await app.knex('webhooks').insert({
      ulid: legacy,
      project_ulid: project.ulid,
      url: receiver.url,
      events: JSON.stringify(['flag.deleted']),
      environments: '[]',
      enabled: true,
      secret: legacySecret,
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
    });
    const sealedBefore = await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.deleted'] });
    const generatedKey = (await app.knex('secret_keys').first()) as { name: string };
    expect(generatedKey.name).toBe('generated');

    // Another instance starts with a configured key: it seals the clear secret and re-seals the
    // one sealed with the generated key, then delivers.
    const configured = randomBytes(32);
    const keyId = secretKey(configured).id;
    const second = await startTestApp(db, {
      config: { webhooks: fastWebhooks, secretKeys: { current: configured, previous: [] } },
      databaseUrl: database.url,
      keepDatabase: true,
    });
    try {
      let rows: Array<{ ulid: string; secret: string; secret_sealed: string | null }> = [];
      for (let i = 0; i < 100; i++) {
        rows = await app.knex('webhooks').whereIn('ulid', [legacy, sealedBefore.ulid]).select('ulid', 'secret', 'secret_sealed');
        if (rows.every((r) => r.secret_sealed?.startsWith(`v1.${keyId}.`))) break;
        await new Promise((r) => setTimeout(r, 30));
      }
      expect(rows.map((r) => [r.secret, r.secret_sealed?.split('.')[1]])).toEqual([
        ['', keyId],
        ['', keyId],
      ]);
      // The first instance lacks the configured key (it could no longer sign): it stops here.
      await app.close();
      await expectOk(second, 'POST', `${p}/flags`, { key: 'gone', name: 'Gone', type: 'boolean' });
      await expectOk(second, 'DELETE', `${p}/flags/gone`);
      await receiver.waitFor(() => receiver.received.length === 3);
      const bySecret = receiver.received.slice(1).map((delivery) => {
        for (const secret of [legacySecret, sealedBefore.secret as string]) {
          try {
            verify(secret, delivery);
            return secret;
          } catch {
            // the other subscription's delivery
          }
        }
        return 'unverified';
      });
      expect(bySecret.sort()).toEqual([legacySecret, sealedBefore.secret].sort());
    } finally {
      await second.close();
    }
  });
});

describeEachDatabase('webhook secrets with a key an instance lacks', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `nokey-${Date.now().toString(36)}`;

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: noDelivery, secretKeys: { current: randomBytes(32), previous: [] } } });
    receiver = await new WebhookReceiver().start();
    await expectOk(app, 'POST', '/projects', { key: projectKey, name: 'No key' });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('retries, naming the missing key, when an instance cannot open a secret', async () => {
    const hook = await expectOk(app, 'POST', `/projects/${projectKey}/webhooks`, { url: receiver.url, events: ['flag.created'] });
    await expectOk(app, 'POST', `/projects/${projectKey}/flags`, { key: 'k', name: 'K', type: 'boolean' });
    // The generated key is never created when a key is configured.
    expect(await app.knex('secret_keys').select('name')).toEqual([]);
    // The delivery task of an instance configured with another key.
    const core = app.composition.core;
    const otherKey = { ...core, config: { ...core.config, secretKeys: { current: randomBytes(32), previous: [] } } };
    const other = dispatcherFor({ ...app, composition: { ...app.composition, core: otherKey } });
    await deliverAll(other);
    other.closeConnections();
    const event = await app.knex('webhook_events').where('webhook_ulid', hook.ulid).first();
    expect(event).toMatchObject({ status: 'pending', attempts: 1 });
    expect(event.last_error).toMatch(/^The key [0-9a-f]{16} that sealed this secret is not configured/);
    expect(receiver.received).toEqual([]);
  });
});
