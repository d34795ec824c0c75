import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { bannerPath, environmentPanel, publishBetaSale, seedShop } from './shop.js';

// The flag page's evaluations chart (per environment, per hour and value, the last 7 days) and
// the summary's "Evaluations (24 h)", both from GET .../evaluations, against what the API answers.
describe('the console: evaluations over time', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;

  const evaluations = (environment: string, hours = 168) =>
    vexil.ok('GET', `${bannerPath}/environments/${environment}/evaluations?hours=${hours}`);

  beforeAll(async () => {
    vexil = await startVexil();
    const value = await seedShop(vexil);
    // Staging serves Sale to the beta segment and Hello to everyone else.
    await publishBetaSale(vexil, value);
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('counts evaluations through /v1 and OFREP, written in the background', async () => {
    const key = (await vexil.ok('POST', '/projects/shop/environments/staging/keys', { kind: 'server' })).key as string;
    const headers = { 'x-vexil-api-key': key, 'content-type': 'application/json' };
    // One instance: the publish answered once this instance serves it.
    const beta = { ...headers, 'x-vexil-context': JSON.stringify({ type: 'user', identifier: 'u-beta' }) };
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${vexil.baseUrl}/v1/flags/banner`, { headers: beta });
      expect(JSON.stringify(await res.json())).toContain('Sale');
    }
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${vexil.baseUrl}/ofrep/v1/evaluate/flags/banner`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ context: { targetingKey: `u-${i}` } }),
      });
      expect(res.status).toBe(200);
    }
    // Written by the background flush (every second): 3 × Sale, 2 × Hello.
    await expect.poll(async () => (await evaluations('staging')).total_24h, { timeout: 20_000 }).toBe(5);
  });

  it('shows the last 24 hours per environment in the summary, as the API counts them', async () => {
    await page.goto(vexil.baseUrl + bannerPath);
    const staging = page.getByTestId('evaluations-24h-staging');
    await expect.poll(() => staging.innerText(), { timeout: 10_000 }).toBe(String((await evaluations('staging', 24)).total_24h));
    expect(await staging.innerText()).toBe('5');
    await expect.poll(() => page.getByTestId('evaluations-24h-production').innerText(), { timeout: 10_000 }).toBe('0');
  });

  it('charts evaluations per hour and value with the API numbers, with a text alternative, and passes axe', async () => {
    const panel = environmentPanel(page, 'Staging');
    const chart = panel.getByRole('img');
    await chart.waitFor();
    const api = await evaluations('staging');
    const bars = await panel.locator('svg rect.bar').evaluateAll((rects) =>
      rects.map((r) => ({
        hour: r.getAttribute('data-hour'),
        value: r.getAttribute('data-value'),
        count: Number(r.getAttribute('data-count')),
      })),
    );
    const order = (a: { hour: string | null; value: string | null }, b: { hour: string | null; value: string | null }) =>
      `${a.hour}/${a.value}`.localeCompare(`${b.hour}/${b.value}`);
    expect(bars.sort(order)).toEqual([...api.buckets].sort(order));
    expect(bars.map((b) => b.value).sort()).toEqual(['Hello', 'Sale']);
    const label = (await chart.getAttribute('aria-label')) ?? '';
    expect(label).toContain('5 evaluations in Staging in the last 7 days, 5 in the last 24 hours');
    expect(label).toContain('Sale 3');
    expect(label).toContain('Hello 2');
    expect((await panel.getByTestId('evaluations-24h').innerText()).startsWith('5 evaluations in the last 24 hours')).toBe(true);
    // The same numbers as a table.
    await panel.getByText('Evaluations per hour as a table').click();
    const rows = await panel
      .locator('.evaluation-chart table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
    expect(rows.map((r) => `${r[1]} ${r[2]}`).sort()).toEqual(
      api.buckets.map((b: { value: string; count: number }) => `${b.value} ${b.count}`).sort(),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '60-evaluation-chart');
  });

  it('says so when an environment has no evaluations', async () => {
    await page.getByRole('tab', { name: 'Production', exact: true }).click();
    const panel = environmentPanel(page, 'Production');
    await panel.getByText('No evaluations in the last 7 days.').waitFor();
    expect(await panel.getByRole('img').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
