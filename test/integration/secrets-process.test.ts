import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { openDatabase } from '../../src/storage/database.js';
import { describeEachDatabase } from '../support/databases.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

// Vexil as a process at its most verbose log level, through the requests that carry secrets:
// a webhook subscription's signing secret (created, used to sign a failed and a delivered
// attempt, a ping) and console passwords (set, a wrong one, signed in, changed, a refused body).
// Nothing it prints, and no audit entry it writes, holds any of them.
describeEachDatabase('secrets stay out of logs and audit entries (process)', (db) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-secrets-'));
  const port = serverPort();
  const base = `http://127.0.0.1:${port}`;
  const token = generateSecret('pat_');
  const secretKey = randomBytes(32).toString('base64');
  const password = `first-${randomBytes(12).toString('hex')}`;
  const changedPassword = `second-${randomBytes(12).toString('hex')}`;
  const wrongPassword = `wrong-${randomBytes(12).toString('hex')}`;
  let child: ChildProcess | undefined;
  let receiver: WebhookReceiver;
  let database: { url: string; drop(): Promise<void> };
  let output = '';

  beforeAll(async () => {
    database = db.name === 'sqlite' ? { url: `sqlite:${dir}/vexil.db`, drop: async () => {} } : await db.create();
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await receiver?.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<ChildProcess> {
    requireFreshBuild();
    const started = spawn(process.execPath, [builtServer], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'trace',
        VEXIL_INIT_OWNER_TOKEN: token,
        VEXIL_SECRET_KEY: secretKey,
        VEXIL_WEBHOOK_ALLOW_HTTP: 'true',
        VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true',
        VEXIL_WEBHOOK_POLL_MS: '50',
        VEXIL_WEBHOOK_RETRY_BASE_MS: '50',
        VEXIL_DRAIN_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    for (let i = 0; i < 1200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (started.exitCode !== null) throw new Error(`server exited with ${started.exitCode}:\n${output}`);
      if (
        await fetch(`${base}/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return started;
    }
    throw new Error(`server did not start:\n${output}`);
  }

  const api = (method: string, route: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
    fetch(`${base}/management/v1${route}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function signIn(email: string, pw: string): Promise<{ cookie: string; csrf: string }> {
    const res = await api('POST', '/session', { email, password: pw }, {});
    expect(res.status).toBe(200);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^vexil_session=ses_/);
    return { cookie, csrf: ((await res.json()) as { data: { csrf_token: string } }).data.csrf_token };
  }

  it('never prints the webhook secret, passwords or tokens at LOG_LEVEL=trace, nor audits passwords', async () => {
    child = await start();
    expect((await api('POST', '/projects', { key: 'shop', name: 'Shop' })).status).toBe(200);

    // A subscription; its first attempt is refused (a logged failure), then it is delivered.
    const created = await api('POST', '/projects/shop/webhooks', { url: receiver.url, events: ['flag.created'] });
    expect(created.status).toBe(200);
    const hook = ((await created.json()) as { data: { ulid: string; secret: string } }).data;
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    receiver.answers = [{ status: 500 }];
    expect((await api('POST', '/projects/shop/flags', { key: 'signed', name: 'Signed', type: 'boolean' })).status).toBe(200);
    await receiver.waitFor(() => receiver.received.length === 2);
    expect((await api('POST', `/projects/shop/webhooks/${hook.ulid}/ping`)).status).toBe(200);
    await receiver.waitFor(() => receiver.received.length === 3);
    // The secret shown is the one that signs.
    for (const delivery of receiver.received) {
      const headers = { 'webhook-id': delivery.id, 'webhook-timestamp': delivery.timestamp, 'webhook-signature': delivery.signature };
      expect(() => new Webhook(hook.secret).verify(delivery.body, headers)).not.toThrow();
    }
    expect((await api('GET', `/projects/shop/webhooks/${hook.ulid}/deliveries`)).status).toBe(200);

    // Console passwords: set with the token, a wrong one, signed in, changed, a refused body.
    const accounts = ((await (await api('GET', '/accounts')).json()) as { data: Array<{ ulid: string; email: string }> }).data;
    const owner = accounts[0]!;
    expect((await api('PUT', `/accounts/${owner.ulid}/password`, { password })).status).toBe(200);
    expect((await api('POST', '/session', { email: owner.email, password: wrongPassword }, {})).status).toBe(401);
    const first = await signIn(owner.email, password);
    const change = await api(
      'PUT',
      '/session/password',
      { current_password: password, new_password: changedPassword },
      { cookie: first.cookie, 'x-csrf-token': first.csrf },
    );
    expect(change.status).toBe(200);
    const second = await signIn(owner.email, changedPassword);
    expect((await api('GET', '/session', undefined, { cookie: second.cookie })).status).toBe(200);
    expect((await api('POST', '/session', { email: owner.email, password: changedPassword, remember: true }, {})).status).toBe(422);

    // Stopped the ordinary way, so every buffered line and audit entry is out.
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;

    // The log was on and saw these requests (an empty log would prove nothing).
    expect(output).toContain('"path":"/management/v1/session"');
    expect(output).toContain(`"path":"/management/v1/projects/shop/webhooks/${hook.ulid}/ping"`);
    expect(output).toContain('webhook delivery failed');
    const secrets = {
      'webhook secret': hook.secret,
      'webhook secret without its prefix': hook.secret.slice('whsec_'.length),
      password,
      'changed password': changedPassword,
      'wrong password': wrongPassword,
      'owner token': token,
      'secret key': secretKey,
      'first session cookie': first.cookie.split('=')[1] as string,
      'second session cookie': second.cookie.split('=')[1] as string,
    };
    for (const [name, value] of Object.entries(secrets)) expect(output.includes(value), `${name} in the output`).toBe(false);

    // The audit entries record these requests, and no secret of them.
    const { knex } = openDatabase(database.url);
    try {
      const entries = await knex('audit_entries').select();
      const actions = entries.map((e: { action: string }) => e.action);
      for (const action of ['webhook.created', 'webhook.pinged', 'account.password_set', 'auth.sign_in', 'account.password_changed'])
        expect(actions).toContain(action);
      expect(
        entries.filter((e: { action: string; result: string }) => e.action === 'auth.sign_in').map((e: { result: string }) => e.result),
      ).toEqual(expect.arrayContaining(['denied_auth', 'success']));
      const audited = JSON.stringify(entries);
      for (const [name, value] of Object.entries(secrets)) expect(audited.includes(value), `${name} in the audit entries`).toBe(false);
    } finally {
      await knex.destroy();
    }
  });
});
