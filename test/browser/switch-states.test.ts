import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, startVexil, type RunningVexil } from './harness.js';
import { bannerPath, environmentPanel, publishBetaSale, seedShop } from './shop.js';

// The switches say what the API says after a change made somewhere else: through the API while a
// screen is open, from the flag page's panel (the summary above it follows), and on the flags list
// reached by the console's own links (no reload). `banner`'s off value is its default, Hello.
describe('the console: switch states after a publish elsewhere', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let value: Record<string, string>;

  const switchOf = (environment: string, flag = 'banner') => page.getByRole('switch', { name: `${flag} in ${environment}` });
  const state = (environment: string) => switchOf(environment).getAttribute('aria-checked');
  /** What the API says: `on` of the environment's serving state. */
  const apiOn = async (environment: string) =>
    String(
      ((await vexil.ok('GET', `${bannerPath}?include=serving`)).environments as Array<{ environment_key: string; on: boolean }>).find(
        (s) => s.environment_key === environment,
      )?.on,
    );

  beforeAll(async () => {
    vexil = await startVexil();
    value = await seedShop(vexil);
    await publishBetaSale(vexil, value);
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('shows on the flag page, reached from the list, a kill made through the API after the list was shown', async () => {
    await page.goto(`${vexil.baseUrl}/projects/shop/flags`);
    await switchOf('Staging').waitFor();
    expect(await state('Staging')).toBe('true');
    // Elsewhere: the API turns staging off.
    await vexil.ok('POST', `${bannerPath}/environments/staging/switch`, { on: false });
    expect(await apiOn('staging')).toBe('false');
    await page.getByRole('link', { name: 'Banner' }).click();
    await page.getByTestId('summary-staging').waitFor();
    await expect.poll(() => state('Staging'), { timeout: 10_000 }).toBe('false');
    const published = environmentPanel(page, 'Staging').getByRole('region', { name: 'Published in Staging' });
    await published.getByText('No rules: every context gets the base value.').waitFor();
  });

  it('turns the summary switch on when the panel restores a publish, and the list follows without a reload', async () => {
    const panel = environmentPanel(page, 'Staging');
    await panel.getByText('History in Staging').click();
    await panel
      .locator('tbody tr', { hasText: 'beta gets the sale' })
      .getByRole('button', { name: /^Restore the publish of/ })
      .click();
    const dialog = page.getByRole('dialog', { name: /^Restore the publish made .* in Staging$/ });
    await dialog.getByRole('button', { name: 'Publish again in Staging' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => state('Staging'), { timeout: 10_000 }).toBe('true');
    expect(await apiOn('staging')).toBe('true');
    await environmentPanel(page, 'Staging').getByRole('list', { name: 'Published rules in Staging' }).waitFor();
    await page.getByRole('link', { name: 'All flags of shop' }).click();
    await page.getByRole('heading', { name: 'Flags of shop' }).waitFor();
    await expect.poll(() => state('Staging'), { timeout: 10_000 }).toBe('true');
    expect(await state('Production')).toBe('false');
  });

  it('shows a rollout published through the API as on, and the off value served to everyone afterwards as off', async () => {
    const targets = `${bannerPath}/environments/production/targets`;
    const draft = await vexil.ok('POST', targets);
    await vexil.ok('PUT', `${targets}/${draft.ulid}`, { value_ulid: value.Sale });
    await vexil.ok('PUT', `${targets}/${draft.ulid}/publish`, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 20 });
    expect(await apiOn('production')).toBe('true');
    await page.reload();
    await switchOf('Production').waitFor();
    await expect.poll(() => state('Production'), { timeout: 10_000 }).toBe('true');
    await screenshot(page, 'switch-states-rollout');
    // Elsewhere: Hello (the off value) to everyone, rules dropped; the open page shows it once read again.
    await vexil.ok('POST', `${bannerPath}/environments/production/serve`, { value: 'Hello', drop_rules: true });
    expect(await apiOn('production')).toBe('false');
    await page.getByRole('link', { name: 'Banner' }).click();
    await page.getByTestId('summary-production').waitFor();
    await expect.poll(() => state('Production'), { timeout: 10_000 }).toBe('false');
    expect(await state('Staging')).toBe('true');
  });
});
