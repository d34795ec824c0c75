import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';

interface Received {
  id: string;
  signature: string;
  body: { type: string };
}

// The webhooks screen against a real endpoint: subscribe, ping, the delivery log, redeliver, pause, delete.
describe('the console: webhooks', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let receiver: http.Server;
  let endpoint: string;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          id: String(req.headers['webhook-id']),
          signature: String(req.headers['webhook-signature']),
          body: JSON.parse(Buffer.concat(chunks).toString()),
        });
        res.writeHead(204).end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/vexil`;
    vexil = await startVexil({ VEXIL_WEBHOOK_ALLOW_HTTP: 'true', VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true', VEXIL_WEBHOOK_POLL_MS: '100' });
    await vexil.ok('POST', '/projects', {
      key: 'shop',
      name: 'Shop',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('is reached from the project and says when there is none', async () => {
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks of shop' }).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('subscribes an endpoint and shows its signing secret once', async () => {
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Endpoint URL').fill(endpoint);
    await form.getByLabel('every event').uncheck();
    await form.getByLabel('flags', { exact: true }).check();
    await form.getByLabel('publishes and rollouts').check();
    await form.getByLabel('Production').check();
    await form.getByLabel('Description').fill('Deploy bot');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const secret = await page.getByTestId('webhook-secret').innerText();
    expect(secret).toMatch(/^whsec_/);
    const [webhook] = (await vexil.ok('GET', '/projects/shop/webhooks')) as Array<Record<string, unknown>>;
    expect(webhook).toMatchObject({
      url: endpoint,
      events: ['flag.*', 'target.*'],
      environments: ['production'],
      description: 'Deploy bot',
      enabled: true,
    });
    await page.getByRole('heading', { level: 2, name: new RegExp(endpoint.replace(/[./]/g, '\\$&')) }).waitFor();
    await page.getByText('No deliveries yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('pings the endpoint and shows the delivery in the log, then delivers it again', async () => {
    await page.getByRole('button', { name: `Send a ping to ${endpoint}` }).click();
    await page.getByText('Ping queued').waitFor();
    await expect.poll(() => received.length, { timeout: 60_000 }).toBe(1);
    expect(received[0]?.body.type).toBe('webhook.ping');
    expect(received[0]?.signature).toMatch(/^v1,/);
    const log = page.getByRole('table', { name: `Deliveries of ${endpoint}` });
    const rows = log.locator('tbody tr');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh deliveries' }).click();
          return rows.first().innerText();
        },
        { timeout: 60_000 },
      )
      .toMatch(/webhook\.ping\s+delivered/);
    expect(await rows.first().innerText()).toContain('HTTP 204');
    await screenshot(page, 'webhooks-deliveries');

    await rows
      .first()
      .getByRole('button', { name: /^Redeliver/ })
      .click();
    await expect.poll(() => received.length, { timeout: 60_000 }).toBe(2);
    // A new delivery: a new webhook-id.
    expect(received[1]?.id).not.toBe(received[0]?.id);
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh deliveries' }).click();
          return rows.count();
        },
        { timeout: 60_000 },
      )
      .toBe(2);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('rotates the signing secret with a grace period, in which deliveries carry both signatures', async () => {
    const oldSecret = await page.getByTestId('webhook-secret').innerText();
    await page.getByRole('button', { name: `Rotate secret of ${endpoint}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByLabel('Grace period').selectOption({ label: 'an hour' });
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    const newSecret = await page.getByTestId('rotated-secret').innerText();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await page.getByText('The previous secret signs too until').waitFor();
    const before = received.length;
    await page.getByRole('button', { name: `Send a ping to ${endpoint}` }).click();
    await expect.poll(() => received.length, { timeout: 60_000 }).toBe(before + 1);
    expect(received[before]?.signature.split(' ')).toHaveLength(2);
    await screenshot(page, 'webhooks-rotated');
  });

  it('pauses and resumes the subscription, and deletes it after typing its URL', async () => {
    await page.getByRole('button', { name: `Pause ${endpoint}` }).click();
    await page.getByRole('button', { name: `Resume ${endpoint}` }).waitFor();
    expect(((await vexil.ok('GET', '/projects/shop/webhooks')) as Array<{ enabled: boolean }>)[0]?.enabled).toBe(false);
    await page.getByRole('button', { name: `Resume ${endpoint}` }).click();
    await page.getByRole('button', { name: `Pause ${endpoint}` }).waitFor();
    expect(((await vexil.ok('GET', '/projects/shop/webhooks')) as Array<{ enabled: boolean }>)[0]?.enabled).toBe(true);

    await page.getByText(`Delete ${endpoint}`).click();
    await page.getByLabel(/^Type .* to delete this subscription/).fill(endpoint);
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhooks yet').waitFor();
    expect(await vexil.ok('GET', '/projects/shop/webhooks')).toEqual([]);
    await screenshot(page, 'webhooks-empty');
  });
});
