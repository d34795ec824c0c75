import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Resolver } from '../../src/features/webhooks/url-guard.js';
import { expectNoWrites } from './admin-support.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { deliverAll, fastWebhooks, noDelivery, testDeliveries } from './webhook-fixtures.js';

// Receivers on loopback, link-local or private addresses are refused unless allowed: when a
// subscription is saved, and at every attempt, which connects only to the addresses it checked.
describeEachDatabase('webhook receiver addresses', (db) => {
  let strict: TestApp;
  let lenient: TestApp;
  let dropDatabase: () => Promise<void>;
  const projectKey = `addresses-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const deliveries = testDeliveries(() => lenient);
  const { dispatcher } = deliveries;

  beforeAll(async () => {
    const database = await db.create();
    dropDatabase = database.drop;
    // Two instances of one database: one refuses private hosts, one allows them (to save
    // subscriptions the other must refuse at delivery). Neither delivers unless a test says so.
    strict = await startTestApp(db, {
      config: { webhooks: { ...noDelivery, allowPrivate: false } },
      databaseUrl: database.url,
      keepDatabase: true,
    });
    lenient = await startTestApp(db, { config: { webhooks: noDelivery }, databaseUrl: database.url, keepDatabase: true });
    await expectOk(lenient, 'POST', '/projects', { key: projectKey, name: 'Addresses' });
  });
  afterAll(async () => {
    await strict?.close();
    await lenient?.close();
    await dropDatabase?.();
  });

  /** A subscription saved by the instance that allows private hosts. */
  async function savedLeniently(url: string): Promise<string> {
    return (await expectOk(lenient, 'POST', `${p}/webhooks`, { url, events: ['flag.created'] })).ulid;
  }

  const change = (key: string) => expectOk(lenient, 'POST', `${p}/flags`, { key, name: key, type: 'boolean' });
  const eventOf = (webhookUlid: string) => lenient.knex('webhook_events').where('webhook_ulid', webhookUlid).first();

  it('refuses private, loopback and link-local receivers when a subscription is saved, names included', async () => {
    const port = new URL(deliveries.receiver.url).port;
    const refused = [
      `http://127.0.0.1:${port}/hook`,
      `http://localhost:${port}/hook`,
      'http://[::1]/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:7f00:1]/hook',
    ];
    for (const url of refused) {
      const res = await expectNoWrites(strict, () => strict.mgmt('POST', `${p}/webhooks`, { url, events: ['*'] }));
      expect(res.status, url).toBe(422);
      expect(res.body.errors.url, url).toEqual([expect.stringMatching(/is a loopback, link-local or private address\.$/)]);
    }
    expect(await strict.knex('webhooks').whereIn('url', refused)).toEqual([]);
    const hook = await expectOk(strict, 'POST', `${p}/webhooks`, { url: 'https://203.0.113.10/hook', events: ['*'] });
    const moved = await expectNoWrites(strict, () =>
      strict.mgmt('PUT', `${p}/webhooks/${hook.ulid}`, { url: `http://localhost:${port}/hook`, events: ['*'] }),
    );
    expect(moved.status).toBe(422);
    expect(moved.body.errors.url).toEqual([expect.stringMatching(/"localhost" is a loopback, link-local or private address\.$/)]);
    await expectOk(strict, 'DELETE', `${p}/webhooks/${hook.ulid}`);
  });

  it('refuses at delivery a receiver saved while private hosts were allowed', async () => {
    const hook = await savedLeniently(deliveries.receiver.url);
    await change('refused-at-delivery');
    // An instance that refuses private hosts, delivering with its own task.
    const delivering = await startTestApp(db, {
      config: { webhooks: { ...fastWebhooks, allowPrivate: false } },
      databaseUrl: lenient.composition.core.config.databaseUrl,
      keepDatabase: true,
    });
    try {
      for (let i = 0; i < 100 && !(await eventOf(hook))?.attempts; i++) await new Promise((r) => setTimeout(r, 30));
    } finally {
      await delivering.close();
    }
    const event = await eventOf(hook);
    expect(event).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error: expect.stringMatching(/"127\.0\.0\.1" is a loopback, link-local or private address/),
    });
    expect(event.attempts).toBeGreaterThanOrEqual(1);
    expect(deliveries.receiver.received).toEqual([]);
    await expectOk(lenient, 'DELETE', `${p}/webhooks/${hook}`);
  });

  it('refuses at delivery a name that resolves to a private address', async () => {
    const port = new URL(deliveries.receiver.url).port;
    const hook = await savedLeniently(`http://internal.example.test:${port}/hook`);
    await change('private-name');
    await deliverAll(dispatcher({ settings: { allowPrivate: false }, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }));
    expect(await eventOf(hook)).toMatchObject({
      attempts: 1,
      last_error: 'The url field\'s host "internal.example.test" is a loopback, link-local or private address.',
    });
    expect(deliveries.receiver.received).toEqual([]);
    await expectOk(lenient, 'DELETE', `${p}/webhooks/${hook}`);
  });

  it('resolves the host once per attempt and connects to that address, whatever the name resolves to afterwards', async () => {
    const port = new URL(deliveries.receiver.url).port;
    const hook = await savedLeniently(`http://rebinding.example.test:${port}/hook`);
    await change('rebinding');
    // A public address for the check, then loopback for anyone asking again (DNS rebinding).
    const asked: string[] = [];
    const rebinding: Resolver = async (host) => {
      asked.push(host);
      return [{ address: asked.length === 1 ? '203.0.113.7' : '127.0.0.1', family: 4 }];
    };
    await deliverAll(dispatcher({ settings: { allowPrivate: false, timeoutMs: 300 }, resolve: rebinding }));
    expect(asked).toEqual(['rebinding.example.test']);
    expect(deliveries.receiver.received).toEqual([]);
    expect(await eventOf(hook)).toMatchObject({ attempts: 1, status: 'pending', last_status_code: null });

    // The same pinning, seen from the receiver: a name the system cannot resolve reaches it
    // through the vetted address, with its own name in the Host header.
    const pinned: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    await lenient.knex('webhook_events').where('webhook_ulid', hook).update({ next_attempt_at: '2000-01-01T00:00:00.000Z' });
    await deliverAll(dispatcher({ resolve: pinned }));
    expect(deliveries.receiver.received.length).toBe(1);
    expect(deliveries.receiver.hosts).toEqual([`rebinding.example.test:${port}`]);
    expect(await eventOf(hook)).toMatchObject({ status: 'delivered', attempts: 2 });
    await expectOk(lenient, 'DELETE', `${p}/webhooks/${hook}`);
  });

  it('keeps the URL host as the TLS server name (SNI) and checks the certificate against it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        `${dir}/key.pem`,
        '-out',
        `${dir}/cert.pem`,
        '-days',
        '1',
        '-subj',
        '/CN=other.example.test',
      ],
      { stdio: 'ignore' },
    );
    const names: string[] = [];
    const server = https.createServer(
      {
        key: fs.readFileSync(`${dir}/key.pem`),
        cert: fs.readFileSync(`${dir}/cert.pem`),
        SNICallback: (name, done) => {
          names.push(name);
          done(null);
        },
      },
      (_req, res) => res.writeHead(200).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const hook = await savedLeniently(`https://hooks.example.test:${port}/hook`);
      await change('tls-name');
      await deliverAll(dispatcher({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] }));
      expect(names).toEqual(['hooks.example.test']);
      // Self-signed for another name: refused by the certificate check, never counted as delivered.
      const event = await eventOf(hook);
      expect(event).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
      expect(event.last_error).toMatch(/certificate/i);
      await expectOk(lenient, 'DELETE', `${p}/webhooks/${hook}`);
    } finally {
      server.closeAllConnections();
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
