/** The server the generated clients talk to: built Vexil on a fresh SQLite file, and a webhook receiver. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const secret = (prefix: string) => prefix + Array.from(randomBytes(40), (b) => base62[b % 62]).join('');

export interface RunningServer {
  baseUrl: string;
  ownerToken: string;
  stop(): Promise<void>;
}

/** Starts dist/src/main.js (`make build`) with the owner token given, rate limits off, webhooks to local HTTP allowed. */
export async function startServer(root: string): Promise<RunningServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-clients-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const ownerToken = secret('pat_');
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${dir}/vexil.db`,
      PORT: String(port),
      HOST: '127.0.0.1',
      VEXIL_INIT_OWNER_TOKEN: ownerToken,
      VEXIL_PUBLIC_RATE_LIMIT: '0',
      VEXIL_RATE_LIMIT_STANDARD: '1000000',
      VEXIL_RATE_LIMIT_ELEVATED: '1000000',
      VEXIL_WEBHOOK_ALLOW_HTTP: 'true',
      VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true',
      VEXIL_WEBHOOK_POLL_MS: '200',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error('the server stopped during start-up');
    const ready = await fetch(`${baseUrl}/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (i > 150) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    ownerToken,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface WebhookReceiver {
  url: string;
  /** Event types received so far (`type` of each delivery). */
  received: string[];
  close(): Promise<void>;
}

/** Answers every delivery with 204 and notes its event type. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      try {
        received.push(String((JSON.parse(text) as { type?: unknown }).type));
      } catch {
        received.push('(not JSON)');
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/vexil`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
