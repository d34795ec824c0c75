import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, startVexil, type RunningVexil } from './harness.js';
import { publishBetaSale, seedShop } from './shop.js';

// A flag page loads with a bounded number of requests, whatever the number of environments: a
// person browsing flag after flag stays far from the session's rate limit.
describe('the flag page: requests', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    vexil = await startVexil();
    const value = await seedShop(vexil);
    await vexil.ok('POST', '/projects/shop/environments', { key: 'qa', name: 'QA' });
    // Staging serves Sale to the beta segment: the open panel has published rules to show.
    await publishBetaSale(vexil, value);
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('opens a flag with 3 environments in 5 requests at most, none for the environments not open', async () => {
    expect((await vexil.ok('GET', '/projects/shop/environments')).length).toBe(3);
    await page.goto(`${vexil.baseUrl}/projects/shop/flags`);
    await page.getByRole('link', { name: 'Banner' }).waitFor();
    await page.waitForLoadState('networkidle');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/management/v1/')) asked.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.getByRole('link', { name: 'Banner' }).click();
    await page.getByTestId('summary-qa').waitFor();
    await page.getByRole('list', { name: 'Published rules in Staging' }).waitFor();
    await page.waitForLoadState('networkidle');
    // Settled: nothing more is asked for a while.
    await page.waitForTimeout(500);
    // The page: the flag with every environment's state (evaluations of the last 24 h included),
    // its values and the environments; then the open environment's panel in one read
    // (getFlagEnvironmentOverview: its targets, published rules, insights, chart and the contexts
    // observed). Nothing is read per environment that is not open, so more environments cost no
    // more requests.
    expect(
      asked.filter((r) => /\/environments\/(production|qa)\//.test(r)),
      asked.join('\n'),
    ).toEqual([]);
    expect(
      asked.filter((r) => r.includes('/overview')),
      asked.join('\n'),
    ).toEqual(['GET /management/v1/projects/shop/flags/banner/environments/staging/overview']);
    expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(5);
  });
  it('opens a flag with a draft open in 6 requests: its rules and prerequisites come with the overview', async () => {
    await vexil.ok('POST', '/projects/shop/flags/banner/environments/staging/targets');
    await page.goto(`${vexil.baseUrl}/projects/shop/flags`);
    await page.getByRole('link', { name: 'Banner' }).waitFor();
    await page.waitForLoadState('networkidle');
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/management/v1/')) asked.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.getByRole('link', { name: 'Banner' }).click();
    await page.getByRole('region', { name: 'Draft in Staging' }).waitFor();
    await page.getByRole('list', { name: 'Published rules in Staging' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    // The draft is a copy of the publish: its rule is listed from the overview's answer.
    await page.getByRole('region', { name: 'Draft in Staging' }).getByText('Beta', { exact: false }).first().waitFor();
    expect(
      asked.filter((r) => /\/(rules|prerequisites)$/.test(r)),
      asked.join('\n'),
    ).toEqual([]);
    // The four of a page without a draft, and what the draft's editors offer: the project's flags
    // (prerequisites) and segments (segment criteria).
    expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(6);
  });
});
