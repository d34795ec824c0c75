import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt, launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';

// The administration screens: keys, tokens, segments, insights and accounts.
describe('the console administration screens', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureConsoleBuilt();
    vexil = await startVexil();
    expect((await vexil.api('POST', '/projects', { key: 'shop', name: 'Shop', description: '', environments: [{ key: 'production', name: 'Production' }] })).status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(vexil.baseUrl);
    await page.getByLabel('Email').fill(vexil.ownerEmail);
    await page.getByLabel('Password').fill(vexil.ownerPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('creates an environment key, showing its secret once, and the key works', async () => {
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    await page.getByRole('button', { name: 'Create Production key' }).click();
    const secret = await page.getByTestId('new-key').innerText();
    expect(secret).toMatch(/^srv_[0-9A-Za-z]{40}$/);
    const flags = await fetch(`${vexil.baseUrl}/v1/flags`, { headers: { 'x-vexil-api-key': secret } });
    expect(flags.status).toBe(200);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '10-project');
    await page.reload();
    expect(await page.getByText(secret).count()).toBe(0);
  });

  it('creates a segment and shows the insights of the project', async () => {
    await page.getByRole('link', { name: 'Segments' }).click();
    await page.getByLabel('Key').fill('staff');
    await page.getByLabel('Name').fill('Staff');
    await page.getByLabel('Attribute (optional rule)').fill('email_domain');
    await page.getByLabel('is one of (comma-separated)').fill('shop.test');
    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('heading', { name: 'Staff staff' }).waitFor();
    const editor = page.getByRole('form', { name: 'Segment staff' });
    await editor.getByLabel('Rule: attribute').fill('plan');
    await editor.getByLabel('is one of (comma-separated)').fill('pro, enterprise');
    await editor.getByRole('button', { name: 'Add rule' }).click();
    await editor.getByLabel('Always members (identifiers, comma-separated)').fill('u-1, u-2');
    const savedResponse = page.waitForResponse((r) => r.url().includes('/segments/staff') && r.request().method() === 'PUT');
    await editor.getByRole('button', { name: 'Save staff' }).click();
    expect((await savedResponse).status()).toBe(200);
    const saved = await vexil.api('GET', '/projects/shop/segments/staff');
    expect(saved.body.data.included).toEqual(['u-1', 'u-2']);
    expect(saved.body.data.rules.map((r: { criteria: Array<{ sub_selector: string }> }) => r.criteria[0]?.sub_selector)).toEqual(['email_domain', 'plan']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '11-segments');
    await page.goto(`${vexil.baseUrl}/projects/shop/insights`);
    await page.getByRole('heading', { name: 'Insights of shop' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('creates a management token, showing its secret once, and shows an API error by its message', async () => {
    await page.getByRole('link', { name: 'Tokens' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByRole('status').locator('code').innerText();
    expect(secret).toMatch(/^mgt_/);
    const listed = await fetch(`${vexil.baseUrl}/management/v1/projects/shop/flags`, { headers: { authorization: `Bearer ${secret}` } });
    expect(listed.status).toBe(200);
    await page.getByLabel('Only these projects (keys, comma-separated; empty: all)').fill('no-such-project');
    await page.getByLabel('Name', { exact: true }).fill('broken');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('alert').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '12-tokens');
  });

  it('creates an account and sets its password, with which it signs in', async () => {
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill('ada@shop.test');
    await page.getByLabel('Projects (keys, comma-separated)').fill('shop');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('New password for ada@shop.test').fill('ada has a long password');
    await page.getByRole('form', { name: 'Password of ada@shop.test' }).getByRole('button', { name: 'Set password' }).click();
    await page.getByText("Set; the account's sessions ended.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '13-accounts');
    const signIn = await fetch(`${vexil.baseUrl}/management/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@shop.test', password: 'ada has a long password' }),
    });
    expect(signIn.status).toBe(200);
  });

  it('serves a value now from the flag page (the kill switch)', async () => {
    expect((await vexil.api('POST', '/projects/shop/flags', { key: 'kill-switch', name: 'Kill switch', type: 'boolean' })).status).toBe(200);
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
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Public API traffic').check();
    await page.locator('tbody tr', { hasText: 'flag.evaluated' }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '14-public-audit');
  });
});
