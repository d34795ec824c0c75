import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { describeEachDatabase } from '../support/databases.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { builtServer, requireFreshBuild } from '../support/built.js';
import { serverPort } from '../support/ports.js';

// The outbox is written with the change: a server killed before delivering loses nothing.
describeEachDatabase('webhook delivery across a kill -9', (db) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-webhooks-'));
  const port = serverPort();
  const token = generateSecret('pat_');
  const children: ChildProcess[] = [];
  let receiver: WebhookReceiver | undefined;
  let database: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    database = db.name === 'sqlite' ? { url: `sqlite:${dir}/vexil.db`, drop: async () => {} } : await db.create();
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver?.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(pollMs: number, timeoutMs = 10_000): Promise<ChildProcess> {
    requireFreshBuild();
    const child = spawn(process.execPath, [builtServer], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        VEXIL_INIT_OWNER_TOKEN: token,
        VEXIL_WEBHOOK_ALLOW_HTTP: 'true',
        VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true',
        VEXIL_WEBHOOK_POLL_MS: String(pollMs),
        VEXIL_WEBHOOK_TIMEOUT_MS: String(timeoutMs),
      },
      stdio: 'ignore',
    });
    children.push(child);
    for (let i = 0; i < 1200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const up = await fetch(`http://127.0.0.1:${port}/v1/api-docs`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return child;
    }
    throw new Error('server did not start');
  }

  const api = (method: string, route: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${port}/management/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  it('delivers after a restart the event of a change made just before the kill', async () => {
    receiver = await new WebhookReceiver().start();
    // First life: deliveries would only be looked for in ten minutes.
    const first = await start(600_000);
    expect((await api('POST', '/projects', { key: 'shop', name: 'Shop' })).status).toBe(200);
    expect((await api('POST', '/projects/shop/webhooks', { url: receiver.url, events: ['flag.created'] })).status).toBe(200);
    expect((await api('POST', '/projects/shop/flags', { key: 'survivor', name: 'Survivor', type: 'boolean' })).status).toBe(200);
    await kill(first);
    expect(receiver.received).toEqual([]);

    const second = await start(50);
    await receiver.waitFor(() => receiver!.received.length === 1, 10_000);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'flag.created', data: { subject: { label: 'survivor' } } });
    await kill(second);
  });

  it('attempts again, once its lease has run out, an event whose attempt the kill cut short', async () => {
    await receiver?.close();
    receiver = await new WebhookReceiver().start();
    // The receiver holds the first attempt; the instance dies while it waits.
    receiver.answers = [{ status: 200, delayMs: 30_000 }];
    // A one-second timeout: the lease of an attempt lasts six seconds.
    const first = await start(50, 1_000);
    expect((await api('POST', '/projects', { key: 'cut', name: 'Cut' })).status).toBe(200);
    const hook = (await (await api('POST', '/projects/cut/webhooks', { url: receiver.url, events: ['flag.created'] })).json()) as {
      data: { ulid: string };
    };
    expect((await api('POST', '/projects/cut/flags', { key: 'interrupted', name: 'Interrupted', type: 'boolean' })).status).toBe(200);
    await receiver.waitFor(() => receiver!.received.length === 1, 10_000);
    const cutAt = Date.now();
    await kill(first);

    const second = await start(50, 1_000);
    await receiver.waitFor(() => receiver!.received.length === 2, 20_000);
    // Not before the lease ran out: the dead instance still held it.
    expect(Date.now() - cutAt).toBeGreaterThan(4_000);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    // The receiver has it; the instance records it right after.
    const deliveries = async () =>
      (
        (await (await api('GET', `/projects/cut/webhooks/${hook.data.ulid}/deliveries`)).json()) as {
          data: Array<{ status: string; attempts: number }>;
        }
      ).data;
    let log = await deliveries();
    for (let i = 0; i < 100 && log[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      log = await deliveries();
    }
    expect(log).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2 })]);
    await kill(second);
  });
});
