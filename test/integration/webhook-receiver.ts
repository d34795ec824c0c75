import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status, optionally after a delay. */
export type Answer = { status: number; delayMs?: number };

/** A real local HTTP endpoint that records webhook deliveries and answers as the test says. */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  /** The Host header of every request, in arrival order. */
  readonly hosts: string[] = [];
  /** Answers for the next requests, in order; 200 once they run out. */
  answers: Answer[] = [];
  /** When set, answers each request it returns an answer for (before `answers` are used). */
  answerFor: ((delivery: ReceivedDelivery) => Answer | undefined) | undefined;
  private server!: http.Server;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const delivery: ReceivedDelivery = {
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const answer = this.answerFor?.(delivery) ?? this.answers.shift() ?? { status: 200 };
        // Recorded on arrival, so the order is the order attempts were made.
        this.received.push(delivery);
        this.hosts.push(String(req.headers.host));
        const reply = () => {
          if (!res.destroyed) res.writeHead(answer.status).end('ok');
        };
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** The event type of every request received, in arrival order. */
  types(): string[] {
    return this.received.map((r) => (JSON.parse(r.body) as { type: string }).type);
  }

  async waitFor(check: () => boolean, withinMs = 10_000): Promise<void> {
    const started = Date.now();
    while (!check()) {
      if (Date.now() - started > withinMs)
        throw new Error(`receiver: condition not met within ${withinMs} ms (got ${this.received.length})`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
