import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fastWebhooks, sleep } from './webhook-fixtures.js';

/** The ```js block of docs/webhooks.md: the verification example, as a reader copies it. */
function readmeVerifier(): string {
  const page = fs.readFileSync('docs/webhooks.md', 'utf8');
  const block = /^```js\n([\s\S]*?)^```$/m.exec(page)?.[1];
  if (!block) throw new Error('docs/webhooks.md has no ```js block');
  return block;
}

type Request = http.IncomingMessage & { body?: unknown };
type Reply = { status(code: number): { end(): void } };
type Handler = (req: Request, res: Reply, next: () => void) => void;

/**
 * The two parts of Express the example uses, over node:http: `express.text({ type })` (the body
 * as text when its content type is `type`) and `app.post(path, ...handlers)`. The example's own
 * code (verification, deduplication) runs as written.
 */
function expressLike() {
  const routes = new Map<string, Handler[]>();
  const server = http.createServer((req: Request, res) => {
    const handlers = routes.get(`${req.method} ${req.url}`);
    if (!handlers) return void res.writeHead(404).end();
    const reply: Reply = { status: (code) => ({ end: () => void res.writeHead(code).end() }) };
    const run = (i: number): void => {
      const handler = handlers[i];
      if (handler) handler(req, reply, () => run(i + 1));
    };
    run(0);
  });
  const app = { post: (route: string, ...handlers: Handler[]) => void routes.set(`POST ${route}`, handlers) };
  const express = {
    text:
      ({ type }: { type: string }): Handler =>
      (req, _res, next) => {
        if (!String(req.headers['content-type'] ?? '').startsWith(type)) return next();
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          req.body = Buffer.concat(chunks).toString('utf8');
          next();
        });
      },
  };
  return { app, express, server };
}

// The verification example of docs/webhooks.md, run as a receiver of real deliveries: it accepts Vexil's
// signed events once each, and refuses a body that was changed on the way.
describeEachDatabase('the webhook verification example of docs/webhooks.md', (db) => {
  let app: TestApp;
  const projectKey = `readme-hooks-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const receiver = expressLike();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-readme-webhook-'));
  const ok = (method: string, route: string, body?: unknown) => expectOk(app, method, route, body);

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: fastWebhooks } });
    await ok('POST', '/projects', { key: projectKey, name: 'README hooks', environments: [{ key: 'production', name: 'Production' }] });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('accepts each signed delivery once, and refuses a body changed on the way', async () => {
    const url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/vexil`;
    const hook = await ok('POST', `${p}/webhooks`, { url, events: ['flag.*'] });

    // The example as a module of its own: the reader's `app` and `express` come first, then
    // the block exactly as the page shows it (its import resolves in this repository).
    const module = path.join(dir, `verify-${Date.now().toString(36)}.mjs`);
    fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(module, `const { app, express } = globalThis.readmeWebhookReceiver;\n${readmeVerifier()}`);
    (globalThis as Record<string, unknown>).readmeWebhookReceiver = { app: receiver.app, express: receiver.express };
    vi.stubEnv('VEXIL_WEBHOOK_SECRET', hook.secret);
    const logged: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    // Every request the receiver answers, with what it answered.
    const answers: Array<{ id: string; body: string; status: number }> = [];
    receiver.server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      res.on('finish', () =>
        answers.push({ id: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString('utf8'), status: res.statusCode }),
      );
    });
    await import(pathToFileURL(module).href);

    await ok('POST', `${p}/flags`, { key: 'new-checkout', name: 'New checkout', type: 'boolean' });
    await ok('PUT', `${p}/flags/new-checkout`, { name: 'One-page checkout', permanent: false });
    for (let i = 0; i < 250 && answers.length < 2; i++) await sleep(20);
    expect(answers.map((a) => a.status)).toEqual([204, 204]);
    expect(logged).toEqual([
      ['flag.created', 'new-checkout', expect.objectContaining({ key: 'new-checkout', name: 'New checkout' })],
      ['flag.updated', 'new-checkout', expect.objectContaining({ key: 'new-checkout', name: 'One-page checkout' })],
    ]);
    let log = (await ok('GET', `${p}/webhooks/${hook.ulid}/deliveries`)) as Array<{ status: string; last_status_code: number }>;
    for (let i = 0; i < 100 && log.some((d) => d.status !== 'delivered'); i++) {
      await sleep(20);
      log = await ok('GET', `${p}/webhooks/${hook.ulid}/deliveries`);
    }
    expect(log.map((d) => [d.status, d.last_status_code])).toEqual([
      ['delivered', 204],
      ['delivered', 204],
    ]);

    // Deliveries come at least once: the same request again is accepted, and not handled twice.
    const replay = async (body: string, headers: Record<string, string>) =>
      (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })).status;
    // The deletion's own answer is awaited below: an answer cut off by the end of the test would
    // otherwise be an unhandled rejection.
    let deletion: Promise<unknown> = Promise.resolve();
    const wire = await new Promise<Record<string, string>>((resolve) => {
      receiver.server.prependOnceListener('request', (req: http.IncomingMessage) =>
        resolve({
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        }),
      );
      deletion = ok('DELETE', `${p}/flags/new-checkout`);
    });
    await deletion;
    for (let i = 0; i < 250 && answers.length < 3; i++) await sleep(20);
    const deleted = answers[2]!;
    expect(deleted).toMatchObject({ id: wire['webhook-id'], status: 204 });
    // What arrived is exactly what Vexil signed.
    expect(deleted.body).toBe((await app.knex('webhook_events').where('ulid', deleted.id).first('payload')).payload);
    expect(logged.map((args) => args[0])).toEqual(['flag.created', 'flag.updated', 'flag.deleted']);
    expect(await replay(deleted.body, wire)).toBe(204);
    expect(logged).toHaveLength(3);

    // A body changed on the way, another delivery's body under these headers, or no signature: refused.
    expect(await replay(deleted.body.replace('new-checkout', 'old-checkout'), wire)).toBe(400);
    expect(await replay(answers[0]!.body, wire)).toBe(400);
    expect(await replay(deleted.body, {})).toBe(400);
    expect(logged).toHaveLength(3);
  });
});
