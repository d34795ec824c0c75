import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { WebhookReceiver } from './webhook-receiver.js';

// The outbox is written with the change: a server killed before delivering loses nothing.
describe('webhook delivery across a kill -9', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-webhooks-'));
  const port = 30000 + Math.floor(Math.random() * 20000);
  const token = generateSecret('pat_');
  const children: ChildProcess[] = [];
  let receiver: WebhookReceiver | undefined;

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await receiver?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(pollMs: number): Promise<ChildProcess> {
    // `node --import tsx` rather than the tsx wrapper, so the kill reaches the server process itself.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: `sqlite:${dir}/vexil.db`,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        VEXIL_INIT_OWNER_TOKEN: token,
        VEXIL_WEBHOOK_ALLOW_HTTP: 'true',
        VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true',
        VEXIL_WEBHOOK_POLL_MS: String(pollMs),
      },
      stdio: 'ignore',
    });
    children.push(child);
    for (let i = 0; i < 150; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const up = await fetch(`http://127.0.0.1:${port}/v1/api-docs`).then((r) => r.ok, () => false);
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

  it('delivers after a restart the event of a change made just before the kill', async () => {
    receiver = await new WebhookReceiver().start();
    // First life: deliveries would only be looked for in ten minutes.
    const first = await start(600_000);
    expect((await api('POST', '/projects', { key: 'shop', name: 'Shop' })).status).toBe(200);
    expect((await api('POST', '/projects/shop/webhooks', { url: receiver.url, events: ['flag.created'] })).status).toBe(200);
    expect((await api('POST', '/projects/shop/flags', { key: 'survivor', name: 'Survivor', type: 'boolean' })).status).toBe(200);
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    expect(receiver.received).toEqual([]);

    await start(50);
    await receiver.waitFor(() => receiver!.received.length === 1, 10_000);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'flag.created', data: { subject: { label: 'survivor' } } });
  });
});
