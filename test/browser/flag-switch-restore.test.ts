import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { consoleSessionOk, launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { bannerPath, environmentPanel, publishBetaSale, seedShop } from './shop.js';

// The flag page's summary (environments side by side, switches), the kill switch and its way
// back, restoring any earlier publish, copying targeting between environments, and the flags
// list's switches and filters. `banner` is a string flag: its off value is its default, Hello.
describe('the console: switches, kill switch, restore and copy', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  const value: Record<string, string> = {};
  const beta = { type: 'user', identifier: 'u-beta' };
  const anyone = { type: 'user', identifier: 'u-1' };

  const evaluate = async (environment: string, context: object) =>
    (await vexil.ok('GET', `${bannerPath}/environments/${environment}/evaluate?context=${encodeURIComponent(JSON.stringify(context))}`))
      .value;
  const summaryRow = (environment: string) => page.getByTestId(`summary-${environment}`);
  const switchOf = (environment: string) => page.getByRole('switch', { name: `banner in ${environment}` });
  const checked = async (environment: string) => (await switchOf(environment).getAttribute('aria-checked')) === 'true';

  beforeAll(async () => {
    vexil = await startVexil();
    Object.assign(value, await seedShop(vexil));
    await vexil.ok('PUT', '/projects/shop/environments/production', { name: 'Production', confirmation_required: true });
    // Staging: Sale to the beta segment, Hello (the default, the off value) to everyone else.
    await publishBetaSale(vexil, value);
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('sums up every environment at the top: on or off, what is served, rules, rollout and last change', async () => {
    await page.goto(vexil.baseUrl + bannerPath);
    const staging = summaryRow('staging');
    await staging.waitFor();
    const published = (await vexil.ok('GET', `${bannerPath}/environments/staging/targets`))[0].published_at as string;
    // The last column, evaluations in the last 24 hours, is read once loaded: none were made here.
    await expect
      .poll(async () => (await staging.innerText()).replace(/\s+/g, ' ').trim(), { timeout: 10_000 })
      .toMatch(/^Staging On Hello 1 none (just now|\d+ seconds? ago) 0$/);
    expect(await staging.locator('time').getAttribute('datetime')).toBe(published);
    await expect
      .poll(async () => (await summaryRow('production').innerText()).replace(/\s+/g, ' ').trim(), { timeout: 10_000 })
      .toBe('Production Off Hello (default) 0 none never published 0');
    expect(await checked('Staging')).toBe(true);
    expect(await checked('Production')).toBe(false);
    // One environment at a time below: the first one's tab is open.
    expect(await page.getByRole('tab', { name: 'Staging' }).getAttribute('aria-selected')).toBe('true');
    expect(await environmentPanel(page, 'Production').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '40-flag-summary');
  });

  it('kills in one click where nothing is asked, and the switch brings the targeting back', async () => {
    expect(await evaluate('staging', beta)).toBe('Sale');
    await switchOf('Staging').click();
    await expect.poll(() => checked('Staging'), { timeout: 10_000 }).toBe(false);
    expect(await evaluate('staging', beta)).toBe('Hello');
    expect((await summaryRow('staging').innerText()).replace(/\s+/g, ' ')).toContain('Hello 0');
    // The open environment's panel follows the switch without a reload.
    const published = environmentPanel(page, 'Staging').getByRole('region', { name: 'Published in Staging' });
    await published.getByText('No rules: every context gets the base value.').waitFor();
    await switchOf('Staging').click();
    await expect.poll(() => checked('Staging'), { timeout: 10_000 }).toBe(true);
    expect(await evaluate('staging', beta)).toBe('Sale');
    expect(await evaluate('staging', anyone)).toBe('Hello');
    await published.getByRole('list', { name: 'Published rules in Staging' }).waitFor();
  });

  it('asks for the typed key where the environment requires it: click, type, confirm', async () => {
    // A token cannot publish there (nor lift the setting): a person confirms in another console tab.
    await consoleSessionOk(vexil, 'POST', `${bannerPath}/environments/production/serve`, { value: 'Gift', confirmation: 'production' });
    // A publish made elsewhere shows on the next visit.
    await page.reload();
    await expect.poll(() => checked('Production'), { timeout: 10_000 }).toBe(true);
    await switchOf('Production').click();
    const dialog = page.getByRole('dialog', { name: 'Turn banner off in Production' });
    const confirm = dialog.getByRole('button', { name: 'Turn off in Production' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type production to change what Production serves').fill('production');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '41-kill-switch-confirmation');
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => checked('Production'), { timeout: 10_000 }).toBe(false);
    expect(await evaluate('production', anyone)).toBe('Hello');
  });

  it('preselects what is served in "Serve now"', async () => {
    await page.getByRole('tab', { name: 'Production' }).click();
    const form = environmentPanel(page, 'Production').getByRole('form', { name: 'Serve now in Production' });
    await expect.poll(async () => form.getByLabel('Serve now').inputValue(), { timeout: 10_000 }).toBe(value.Hello);
  });

  it('restores any earlier publish from the history in one action', async () => {
    // Serve Gift to everyone in staging (the rules dropped), then restore the first publish.
    await vexil.ok('POST', `${bannerPath}/environments/staging/serve`, { value: 'Gift', drop_rules: true });
    await page.reload();
    await page.getByRole('tab', { name: 'Staging' }).click();
    const panel = environmentPanel(page, 'Staging');
    await panel.getByText('History in Staging').click();
    const first = panel.locator('tbody tr', { hasText: 'beta gets the sale' });
    await first.getByRole('button', { name: /^Restore the publish of/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Restore the publish made .* in Staging$/ });
    expect(await dialog.innerText()).toContain('Its base value Hello and its rules go live again as a new publish');
    await dialog.getByLabel('Comment (optional)').fill('back to beta');
    await dialog.getByRole('button', { name: 'Publish again in Staging' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await panel.locator('tbody tr', { hasText: 'back to beta' }).waitFor();
    expect(await evaluate('staging', beta)).toBe('Sale');
    expect(await evaluate('staging', anyone)).toBe('Hello');
    await expect.poll(async () => (await summaryRow('staging').innerText()).replace(/\s+/g, ' '), { timeout: 10_000 }).toContain('Hello 1');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('copies one environment to another, with the typed key where the target requires it', async () => {
    await page.getByLabel('From', { exact: true }).selectOption({ label: 'Staging' });
    await page.getByLabel('To', { exact: true }).selectOption({ label: 'Production' });
    await page.getByRole('button', { name: 'Copy Staging to Production…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy Staging to Production' });
    await dialog.getByLabel('Type production to change what Production serves').fill('production');
    await dialog.getByRole('button', { name: 'Publish in Production' }).click();
    await page.getByText('Copied: Production now serves what Staging serves.').waitFor();
    expect(await evaluate('production', beta)).toBe('Sale');
    await expect.poll(() => checked('Production'), { timeout: 10_000 }).toBe(true);
    expect((await summaryRow('production').innerText()).replace(/\s+/g, ' ')).toContain('Hello 1');
  });

  it('says in "Try it" why a value was served: the rule that matched, or the criterion that did not', async () => {
    await page.getByRole('tab', { name: 'Staging' }).click();
    const tryIt = environmentPanel(page, 'Staging').getByRole('form', { name: 'Try it in Staging' });
    const why = tryIt.getByRole('list', { name: 'Why' });
    await tryIt.getByLabel('Identifier').fill('u-beta');
    await tryIt.getByRole('button', { name: 'Evaluate in Staging' }).click();
    await tryIt.getByText('"Sale" (rule)').waitFor();
    expect(await why.getByRole('listitem').allInnerTexts()).toEqual([
      'The newest publish answered.',
      'Rule 1 “Beta”: matched, every criterion holds; it serves its value.',
    ]);
    await tryIt.getByLabel('Identifier').fill('u-1');
    await tryIt.getByRole('button', { name: 'Evaluate in Staging' }).click();
    await tryIt.getByText('"Hello" (target)').waitFor();
    await expect
      .poll(() => why.getByRole('listitem').allInnerTexts(), { timeout: 10_000 })
      .toEqual([
        'The newest publish answered.',
        'Rule 1 “Beta”: did not match: segment equals beta does not hold.',
        'No rule matched: its base value is served.',
      ]);
    expect(await seriousViolations(page)).toEqual([]);
    await tryIt.scrollIntoViewIfNeeded();
    await screenshot(page, '43-try-it-why');
  });

  it('lists a switch per environment, switches from the list and filters by state and staleness', async () => {
    await vexil.ok('POST', '/projects/shop/flags', { key: 'quiet', name: 'Quiet', type: 'boolean' });
    await page.goto(`${vexil.baseUrl}/projects/shop/flags`);
    const quietStaging = page.getByRole('switch', { name: 'quiet in Staging' });
    await quietStaging.waitFor();
    expect(await quietStaging.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'banner in Production' }).getAttribute('aria-checked')).toBe('true');
    await page.getByLabel('State').selectOption({ label: 'on in Staging' });
    // The API filters: the list shows its answer once it comes.
    await page.getByRole('link', { name: 'Quiet' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('link', { name: 'Banner' }).count()).toBe(1);
    await page.getByLabel('State').selectOption({ label: 'any' });
    await quietStaging.click();
    await expect.poll(async () => quietStaging.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('true');
    expect((await vexil.ok('GET', '/projects/shop/flags/quiet/environments/staging/evaluate')).value).toBe(true);
    // Nothing is stale yet: the API's filter leaves no flag, and the address keeps the filter.
    await page.getByLabel('Only stale flags').check();
    await page.getByText('No flag matches these filters.').waitFor();
    expect(new URL(page.url()).searchParams.get('stale')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Only stale flags').uncheck();
    await screenshot(page, '42-flags-list-switches');
  });

  it('tags a flag on its page and filters the list by a tag', async () => {
    await page.goto(vexil.baseUrl + bannerPath);
    const details = page.getByRole('form', { name: 'Flag details' });
    await details.getByLabel('Tags (comma-separated)').fill('team:web, promo');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(async () => (await vexil.ok('GET', bannerPath)).tags, { timeout: 10_000 }).toEqual(['team:web', 'promo']);
    await page.goto(`${vexil.baseUrl}/projects/shop/flags`);
    await page.getByRole('button', { name: 'Show flags tagged promo' }).click();
    await page.getByRole('link', { name: 'Quiet' }).waitFor({ state: 'detached' });
    expect(await page.getByLabel('Tag', { exact: true }).inputValue()).toBe('promo');
    expect(await page.getByRole('link', { name: 'Banner' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
