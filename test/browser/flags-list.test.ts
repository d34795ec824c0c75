import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import {
  launchBrowser,
  screenshot,
  seriousViolations,
  startVexil,
  writeSqliteFile,
  type RunningVexil,
  type SqliteWork,
} from './harness.js';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const types = ['boolean', 'string', 'number', 'json'] as const;

// The flags list of a project: search, type filter, server-side pages, and the stale badge.
describe('the console: the flags list', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-flags-list-'));
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  /** The page size the console asks for (read from its request). */
  let perPage = 0;

  const filters = () => page.getByRole('search');
  /** The keys the list shows now, in order. */
  const shownKeys = () => page.locator('table tbody tr td:nth-child(2) > code').allInnerTexts();
  const row = (key: string) =>
    page.locator('table tbody tr', { has: page.locator('td:nth-child(2) > code', { hasText: new RegExp(`^${key}$`) }) });

  /** The keys of one page of the API's list, with the console's page size. */
  async function apiKeys(project: string, query: Record<string, string> = {}): Promise<{ keys: string[]; next: string | null }> {
    const res = await vexil.api('GET', `/projects/${project}/flags?${new URLSearchParams({ per_page: String(perPage), ...query })}`);
    expect(res.status).toBe(200);
    return { keys: res.body.data.map((f: { key: string }) => f.key), next: res.body.meta.next_cursor };
  }

  const onDatabase = (work: SqliteWork) => writeSqliteFile(path.join(dir, 'vexil.db'), work);

  beforeAll(async () => {
    vexil = await startVexil({ DATABASE_URL: `sqlite:${dir}/vexil.db` });
    await vexil.ok('POST', '/projects', { key: 'big', name: 'Big', environments: [{ key: 'production', name: 'Production' }] });
    // More than two pages of any size the console may ask for up to 100.
    for (let i = 0; i < 205; i++) {
      await vexil.ok('POST', '/projects/big/flags', {
        key: `flag-${String(i).padStart(3, '0')}`,
        name: `Item ${i}`,
        type: types[i % types.length],
      });
    }
    await vexil.ok('POST', '/projects/big/flags', { key: 'checkout-v2', name: 'Checkout redesign', type: 'boolean' });
    await vexil.ok('POST', '/projects/big/flags', { key: 'cart', name: 'New CHECKOUT flow', type: 'string' });
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('pages through the flags with Next and Previous, as the API pages them', async () => {
    const first = page.waitForRequest((r) => r.method() === 'GET' && new URL(r.url()).pathname === '/management/v1/projects/big/flags');
    await page.goto(`${vexil.baseUrl}/projects/big/flags`);
    perPage = Number(new URL((await first).url()).searchParams.get('per_page'));
    expect(perPage).toBeGreaterThan(0);
    expect(perPage).toBeLessThanOrEqual(100);

    const pages: string[][] = [];
    let next: string | null = null;
    do {
      const one = await apiKeys('big', next ? { cursor: next } : {});
      pages.push(one.keys);
      next = one.next;
    } while (next);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.flat()).toHaveLength(207);

    const previousButton = page.getByRole('button', { name: 'Previous page' });
    const nextButton = page.getByRole('button', { name: 'Next page' });
    await expect.poll(shownKeys).toEqual(pages[0]);
    expect(await previousButton.isDisabled()).toBe(true);
    for (const expected of pages.slice(1)) {
      await nextButton.click();
      await expect.poll(shownKeys).toEqual(expected);
      expect(await previousButton.isDisabled()).toBe(false);
    }
    // The last page: nothing further.
    expect(await nextButton.isDisabled()).toBe(true);
    await previousButton.click();
    await expect.poll(shownKeys).toEqual(pages.at(-2));
    // Back to the start, by keyboard.
    while (!(await previousButton.isDisabled())) {
      await previousButton.focus();
      await page.keyboard.press('Enter');
      await page.waitForTimeout(50);
    }
    await expect.poll(shownKeys).toEqual(pages[0]);
    expect(await nextButton.isDisabled()).toBe(false);
  });

  it('searches keys and names, and filters by type, from the first page', async () => {
    // From a later page: a new search starts at the first page of its results.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(async () => (await shownKeys())[0]).not.toBe('flag-000');

    // Typed a key at a time: each keystroke asks again, and the last answer is the one shown.
    await filters().getByLabel('Search key or name').pressSequentially('checkout');
    const found = await apiKeys('big', { search: 'checkout' });
    expect(found.keys.sort()).toEqual(['cart', 'checkout-v2']);
    await expect.poll(async () => (await shownKeys()).sort()).toEqual(found.keys.sort());
    // The results fit on the first page: no pager is shown (it would be, with Previous, on a later page).
    expect(await page.getByRole('button', { name: /^(Next|Previous) page$/ }).count()).toBe(0);

    await filters().getByLabel('Type').selectOption('string');
    await expect.poll(shownKeys).toEqual(['cart']);
    expect((await apiKeys('big', { search: 'checkout', type: 'string' })).keys).toEqual(['cart']);
    expect(await row('cart').locator('td:nth-child(3)').innerText()).toBe('string');

    // Only the type: every string flag, a page at a time.
    await filters().getByLabel('Search key or name').fill('');
    const strings = await apiKeys('big', { type: 'string' });
    await expect.poll(shownKeys).toEqual(strings.keys);
    const typesShown = await page.locator('table tbody tr td:nth-child(3)').allInnerTexts();
    expect(new Set(typesShown)).toEqual(new Set(['string']));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '24-flags-search');

    // Nothing matches: an empty list, no page further.
    await filters().getByLabel('Search key or name').fill('no such flag');
    await expect.poll(shownKeys).toEqual([]);
    expect((await apiKeys('big', { search: 'no such flag' })).keys).toEqual([]);
    await filters().getByLabel('Search key or name').fill('');
    await filters().getByLabel('Type').selectOption('');
    await expect.poll(async () => (await shownKeys())[0]).toBe('flag-000');
  });

  it('marks as stale the flags not used for 30 days that are not permanent', async () => {
    await vexil.ok('POST', '/projects', { key: 'aged', name: 'Aged', environments: [{ key: 'production', name: 'Production' }] });
    const serverKey = (await vexil.ok('POST', '/projects/aged/environments/production/keys', { kind: 'server' })).key as string;
    for (const key of ['old-unused', 'used-long-ago', 'used-today', 'old-permanent', 'fresh']) {
      await vexil.ok('POST', '/projects/aged/flags', { key, name: `Flag ${key}`, type: 'boolean' });
    }
    await vexil.ok('PUT', '/projects/aged/flags/old-permanent', { name: 'Flag old-permanent', permanent: true });
    // Created two months ago (the server's clock cannot be moved: the rows are dated back).
    await onDatabase((db) =>
      db('flags')
        .whereIn('key', ['old-unused', 'used-long-ago', 'used-today', 'old-permanent'])
        .update({ created_at: daysAgo(60) }),
    );
    // Two flags used by the application; one of those uses is then dated 45 days back.
    for (const key of ['used-long-ago', 'used-today']) {
      expect(
        (await fetch(`${vexil.baseUrl}/v1/flags/${key}/usage`, { method: 'POST', headers: { 'x-vexil-api-key': serverKey } })).status,
      ).toBe(200);
    }
    await expect
      .poll(async () => {
        const insights = await Promise.all(
          ['used-long-ago', 'used-today'].map((key) => vexil.ok('GET', `/projects/aged/flags/${key}/environments/production/insights`)),
        );
        return insights.every((i: { last_used_at: string | null }) => i.last_used_at !== null);
      })
      .toBe(true);
    await onDatabase((db) =>
      db('flag_telemetry')
        .whereIn('flag_ulid', db('flags').where('key', 'used-long-ago').select('ulid'))
        .update({ last_used_at: daysAgo(45) }),
    );

    const listed = (await vexil.ok('GET', '/projects/aged/flags?include=serving')) as Array<{
      key: string;
      stale: boolean;
      last_used_at: string | null;
    }>;
    const stale = listed.filter((f) => f.stale).map((f) => f.key);
    expect(stale).toEqual(['old-unused', 'used-long-ago']);

    await page.goto(`${vexil.baseUrl}/projects/aged/flags`);
    await expect.poll(shownKeys).toEqual(['old-unused', 'used-long-ago', 'used-today', 'old-permanent', 'fresh']);
    const badges = async (key: string) => row(key).locator('td:nth-child(2) .badge').allInnerTexts();
    await expect.poll(() => badges('old-unused')).toEqual(['stale']);
    expect(await badges('used-long-ago')).toEqual(['stale']);
    expect(await badges('used-today')).toEqual([]);
    expect(await badges('old-permanent')).toEqual(['permanent']);
    expect(await badges('fresh')).toEqual([]);
    // Last SDK use, as the API has it (beside the last evaluation): relative, the exact time in the time element.
    const sdkUse = (key: string) => row(key).locator('td:last-child > span', { hasText: 'SDK use' });
    const lastUsed = async (key: string) => (await sdkUse(key).innerText()).replace(/^SDK use /, '');
    const lastUsedAt = (key: string) => sdkUse(key).locator('time').getAttribute('datetime');
    expect(await lastUsed('old-unused')).toBe('never');
    expect(await lastUsed('used-long-ago')).toBe('last month');
    expect(await lastUsedAt('used-long-ago')).toBe(listed.find((f) => f.key === 'used-long-ago')?.last_used_at);
    expect(await lastUsed('used-today')).toMatch(/^(just now|\d+ seconds? ago)$/);
    expect(await lastUsedAt('used-today')).toBe(listed.find((f) => f.key === 'used-today')?.last_used_at);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '25-flags-stale');

    // Made permanent on its page, a stale flag loses the badge.
    await row('old-unused').getByRole('link', { name: 'Flag old-unused' }).click();
    const details = page.getByRole('form', { name: 'Flag details' });
    await details.getByLabel('Permanent (never stale)').check();
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(async () => (await vexil.ok('GET', '/projects/aged/flags/old-unused')).permanent).toBe(true);
    await page.getByRole('link', { name: 'All flags of aged' }).click();
    await expect.poll(() => badges('old-unused')).toEqual(['permanent']);
    expect(await badges('used-long-ago')).toEqual(['stale']);
  });
  it('filters by state and staleness on the server, past the first page, and keeps the filters in the address', async () => {
    // flag-148 (a boolean flag) is beyond the first page of 50: only a filter the API applies can find it.
    await vexil.ok('POST', '/projects/big/flags/flag-148/environments/production/serve', { value: 'true' });
    await page.goto(`${vexil.baseUrl}/projects/big/flags`);
    await expect.poll(async () => (await shownKeys())[0]).toBe('flag-000');
    expect(await shownKeys()).not.toContain('flag-148');

    const asked = page.waitForRequest((r) => r.url().includes('/projects/big/flags?') && r.url().includes('on=production'));
    await filters().getByLabel('State').selectOption({ label: 'on in Production' });
    expect(new URL((await asked).url()).searchParams.get('on')).toBe('production');
    await expect.poll(shownKeys).toEqual(['flag-148']);
    expect(new URL(page.url()).search).toBe('?on=production');

    // A reload (or a shared link) opens the list with the same filters.
    await filters().getByLabel('Type').selectOption('boolean');
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('boolean');
    await page.reload();
    await expect.poll(shownKeys).toEqual(['flag-148']);
    expect(await filters().getByLabel('State').inputValue()).toBe('production:on');
    expect(await filters().getByLabel('Type').inputValue()).toBe('boolean');

    // Off in production, searched by its key: nothing matches, and the list says so.
    await filters().getByLabel('State').selectOption({ label: 'off in Production' });
    await filters().getByLabel('Search key or name').fill('flag-148');
    await page.getByText('No flag matches these filters.').waitFor();
    expect(await shownKeys()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${vexil.baseUrl}/projects/big/flags`);
    await expect.poll(async () => (await shownKeys())[0]).toBe('flag-000');
  });
});
