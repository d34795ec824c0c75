/** The server the generated clients talk to: built Vexil on a fresh SQLite file, and a webhook receiver. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFreshServer, type FreshServer } from '../support/fresh-server.mjs';

export type RunningServer = FreshServer;

/** Starts dist/src/main.js (`make build`) with rate limits off and webhooks to local HTTP allowed. */
export function startServer(root: string): Promise<RunningServer> {
  return startFreshServer({
    root,
    tmpPrefix: 'vexil-clients-',
    env: { VEXIL_WEBHOOK_ALLOW_HTTP: 'true', VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true', VEXIL_WEBHOOK_POLL_MS: '200' },
  });
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
