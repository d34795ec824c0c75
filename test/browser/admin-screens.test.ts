import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';

// Screens beside the main flow: the kill switch and the public API traffic. Keys, tokens, accounts,
// segments, insights and the audit log have files of their own (admin-*.test.ts, audit-log.test.ts).
describe('the console: serving a value now and public traffic', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    vexil = await startVexil();
    expect(
      (
        await vexil.api('POST', '/projects', {
          key: 'shop',
          name: 'Shop',
          description: '',
          environments: [{ key: 'production', name: 'Production' }],
        })
      ).status,
    ).toBe(200);
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('serves a value now from the flag page (the kill switch)', async () => {
    expect((await vexil.api('POST', '/projects/shop/flags', { key: 'kill-switch', name: 'Kill switch', type: 'boolean' })).status).toBe(
      200,
    );
    const key = (await vexil.api('POST', '/projects/shop/environments/production/keys', { kind: 'server' })).body.data.key as string;
    await page.goto(`${vexil.baseUrl}/projects/shop/flags/kill-switch`);
    const form = page.getByRole('form', { name: 'Serve now in Production' });
    await form.getByLabel('Serve now').selectOption({ label: 'true' });
    await form.getByRole('button', { name: 'Serve in Production' }).click();
    await page.getByTestId('served-production').getByText('true').waitFor();
    const served = await fetch(`${vexil.baseUrl}/v1/flags/kill-switch`, { headers: { 'x-vexil-api-key': key } });
    expect(((await served.json()) as { data: { flag: { value: unknown } } }).data.flag.value).toEqual({ boolean: true });
  });

  it('shows the public API traffic in the audit log', async () => {
    // Public API entries are written in batches about a second after the request.
    await expect
      .poll(async () => (await vexil.api('GET', '/api-public-audit-logs?action=flag.evaluated')).body.data.length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Public API traffic').check();
    await page.locator('tbody tr', { hasText: 'flag.evaluated' }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '14-public-audit');
  });
});
