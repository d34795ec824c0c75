import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, seriousViolations, signIn, startVexil, type RunningVexil } from './harness.js';
import { bannerPath, environmentPanel, openEnvironment, publishBetaSale, seedShop } from './shop.js';

// The console read as a person reads it (issue 41): the flag page opens on the environment, the
// chart has axes, the flags list says how a flag serves, the audit log leads with what a person
// did, the split editor shows the shares. Screenshots at 1440 px, 390 px and in dark mode.
describe('the console reads like a product', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let wide: Page;
  let value: Record<string, string>;

  const pageOf = async (options: BrowserContextOptions) => {
    const page = await (await browser.newContext(options)).newPage();
    await signIn(page, vexil);
    return page;
  };
  /** The same screen at 390 px and in dark mode (1440 px), written to test-results/screenshots. */
  const otherLooks = async (path: string, name: string, ready: (page: Page) => Promise<unknown>) => {
    for (const [look, options] of [
      ['390', { viewport: { width: 390, height: 844 } }],
      ['dark', { viewport: { width: 1440, height: 900 }, colorScheme: 'dark' }],
    ] as const) {
      const page = await pageOf(options);
      await page.goto(vexil.baseUrl + path);
      await ready(page);
      expect(await seriousViolations(page), `${name} ${look}`).toEqual([]);
      await screenshot(page, `41-${name}-${look}`);
      await page.context().close();
    }
  };

  beforeAll(async () => {
    // Webhooks to this machine, for the webhooks screen (test 6).
    vexil = await startVexil({ VEXIL_WEBHOOK_ALLOW_HTTP: 'true', VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true' });
    value = await seedShop(vexil);
    await vexil.ok('PUT', bannerPath, {
      name: 'Banner',
      description: 'The banner at the top of every shop page: a greeting, or the sale of the week when marketing runs one.',
      tags: ['team:web'],
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
    });
    await publishBetaSale(vexil, value);
    browser = await launchBrowser();
    wide = await pageOf({ viewport: { width: 1440, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('1: opens the flag page on the environment: its switch, what it serves and Try it on the first screen', async () => {
    await wide.goto(vexil.baseUrl + bannerPath);
    const staging = environmentPanel(wide, 'Staging');
    await staging.getByTestId('served-staging').waitFor();
    const onFirstScreen = async (what: string, box: { y: number; height: number } | null) => {
      expect(box, what).not.toBeNull();
      expect(box!.y + box!.height, what).toBeLessThanOrEqual(900);
    };
    await onFirstScreen('switch', await wide.getByRole('switch', { name: 'banner in Staging' }).first().boundingBox());
    await onFirstScreen('served', await staging.getByTestId('served-staging').boundingBox());
    await onFirstScreen('Try it', await staging.getByRole('button', { name: 'Evaluate in Staging' }).boundingBox());
    // The description shows its whole text.
    const description = wide.getByLabel('Description', { exact: true });
    const cut = await description.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    expect(cut).toBe(false);
    expect(await seriousViolations(wide)).toEqual([]);
    await screenshot(wide, '41-flag-page-1440');
    await otherLooks(bannerPath, 'flag-page', (page) => page.getByTestId('served-staging').waitFor());
  });

  it("2: charts evaluations with axes, the numbers under the pointer, the legend in the bars' colours, hours for the last day", async () => {
    const key = (await vexil.ok('POST', '/projects/shop/environments/staging/keys', { kind: 'server' })).key as string;
    const headers = (identifier: string) => ({
      'x-vexil-api-key': key,
      'x-vexil-context': JSON.stringify({ type: 'user', identifier }),
    });
    for (const identifier of ['u-beta', 'u-beta', 'u-beta', 'u-1', 'u-2']) {
      expect((await fetch(`${vexil.baseUrl}/v1/flags/banner`, { headers: headers(identifier) })).status).toBe(200);
    }
    await expect
      .poll(async () => (await vexil.ok('GET', `${bannerPath}/environments/staging/evaluations?hours=24`)).total_24h, { timeout: 20_000 })
      .toBe(5);
    await wide.goto(vexil.baseUrl + bannerPath);
    const chart = environmentPanel(wide, 'Staging').locator('.evaluation-chart');
    await chart.getByRole('img').waitFor();
    // A y-axis from 0 to at least the highest bar (5 in this hour), and hours along the x-axis.
    const yLabels = (await chart.locator('.y-axis text').allTextContents()).map(Number);
    expect(yLabels[0]).toBe(0);
    expect(Math.max(...yLabels)).toBeGreaterThanOrEqual(5);
    const xLabels = await chart.locator('.x-axis text').allTextContents();
    expect(xLabels.length).toBeGreaterThanOrEqual(6);
    for (const label of xLabels) expect(label).toMatch(/^\d\d:00$/);
    // Bars a person can see: 24 hours across the width, not 168 slivers.
    const sale = chart.locator('rect.bar[data-value="Sale"]');
    expect((await sale.boundingBox())!.width).toBeGreaterThanOrEqual(10);
    // The pointer on a bar shows its numbers.
    await sale.hover();
    await expect.poll(() => chart.getByTestId('chart-readout').innerText()).toMatch(/UTC: 5 \(Sale 3, Hello 2\)/);
    // The legend's swatch has the colour of the value's bars.
    const legendColour = await chart
      .locator('.evaluation-legend li[data-value="Sale"] .swatch')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    const barColour = await sale.evaluate((el) => getComputedStyle(el).fill);
    expect(barColour).toBe(legendColour);
    // The last 7 days, per day; the table alternative stays.
    await chart.getByLabel('Last 7 days, per day').check();
    expect(await chart.locator('.x-axis text').count()).toBe(7);
    await chart.getByText('Evaluations per hour as a table').click();
    expect(await chart.locator('table tbody tr').count()).toBe(2);
    expect(await seriousViolations(wide)).toEqual([]);
    await screenshot(wide, '41-evaluation-chart-1440');
  });

  it('3: the flags list says "rules" or "split", counts evaluations beside SDK use, and keeps keys and badges on one line', async () => {
    // A flag with a long key and tags, serving a split in staging.
    const key = 'checkout-payment-step-redesign';
    await vexil.ok('POST', '/projects/shop/flags', { key, name: 'Checkout payment step redesign', type: 'string' });
    await vexil.ok('PUT', `/projects/shop/flags/${key}`, {
      name: 'Checkout payment step redesign',
      tags: ['team:payments', 'experiment'],
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
    });
    const shares = [];
    for (const display of ['old', 'new']) {
      const ulid = (await vexil.ok('POST', `/projects/shop/flags/${key}/values`, { display })).ulid;
      shares.push({ value_ulid: ulid, weight: 50000 });
    }
    const targets = `/projects/shop/flags/${key}/environments/staging/targets`;
    const draft = await vexil.ok('POST', targets);
    await vexil.ok('PUT', `${targets}/${draft.ulid}`, { split: { shares } });
    await vexil.ok('PUT', `${targets}/${draft.ulid}/publish`, {});

    await wide.goto(`${vexil.baseUrl}/projects/shop/flags`);
    const row = (flag: string) => wide.locator('tbody tr', { has: wide.getByRole('link', { name: flag, exact: true }) });
    await row('Banner').waitFor();
    const chips = (flag: string) => row(flag).locator('.env-serving');
    // banner: a rule in staging, one value in production; the new flag: a split in staging.
    expect(await chips('Banner').nth(0).innerText()).toMatch(/staging: rules, else Hello/);
    expect(await chips('Banner').nth(1).innerText()).toMatch(/production: Hello$/);
    expect(await chips('Checkout payment step redesign').nth(0).innerText()).toMatch(/staging: split/);
    // banner was evaluated through the API (test 2), and no SDK reported a use.
    const lastUse = await row('Banner').locator('td').last().innerText();
    expect(lastUse).toMatch(/evaluated (just now|\d+ (seconds?|minutes?) ago)/);
    expect(lastUse).toContain('SDK use never');
    // At 1440 px: the key on one line, every environment on one line of its own, one under the other.
    const keyBox = await row('Checkout payment step redesign')
      .locator('code.flag-key')
      .evaluate((el) => el.getClientRects().length);
    expect(keyBox).toBe(1);
    for (const flag of ['Banner', 'Checkout payment step redesign']) {
      const boxes = await chips(flag).evaluateAll((els) =>
        els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, h: r.height })),
      );
      expect(new Set(boxes.map((b) => Math.round(b.x))).size, flag).toBe(1);
      for (const box of boxes) expect(box.h, flag).toBeLessThan(40);
    }
    expect(await seriousViolations(wide)).toEqual([]);
    await screenshot(wide, '41-flags-list-1440');
    await otherLooks('/projects/shop/flags', 'flags-list', (page) => page.getByRole('link', { name: 'Banner', exact: true }).waitFor());
  });

  it('4: the audit log shows one row per request, led by a sentence, with the path under Details and subjects and actors from lists', async () => {
    await vexil.ok('POST', `${bannerPath}/environments/staging/switch`, { on: false, comment: 'Kill switch: banner errors' });
    // A serve writes the entries of the target it creates and publishes beside its own: one request.
    await vexil.ok('POST', `${bannerPath}/environments/production/serve`, { value: value.Gift, comment: 'Gift week' });
    await wide.goto(`${vexil.baseUrl}/audit`);
    const table = wide.getByRole('table', { name: 'Management audit entries' });
    const rows = table.locator(':scope > tbody > tr');
    const switched = rows.filter({ hasText: 'switched banner off in staging' });
    await switched.waitFor();
    expect(await switched.locator('.audit-sentence').innerText()).toBe(
      `${vexil.ownerEmail} switched banner off in staging: “Kill switch: banner errors”`,
    );
    // The path and ulids wait under Details.
    const path = switched.getByText(/POST \/management\/v1\/projects\/shop\/flags\/banner\/environments\/staging\/switch/);
    expect(await path.isVisible()).toBe(false);
    await switched.getByText('Details').click();
    await path.waitFor();
    // The serve is one row whatever number of entries it wrote.
    const served = rows.filter({ hasText: /served banner in production: “Gift week”/ });
    expect(await served.count(), (await rows.locator('.audit-sentence').allInnerTexts()).join('\n')).toBe(1);
    expect(await served.locator('summary', { hasText: 'Details' }).innerText()).toMatch(/Details \(\d+ entries\)/);
    // The table keeps to the width of the filters.
    const filters = wide.getByRole('search', { name: 'Audit filters' });
    const right = (box: { x: number; width: number } | null) => (box ? box.x + box.width : Number.NaN);
    expect(right(await table.boundingBox())).toBeLessThanOrEqual(right(await filters.boundingBox()) + 1);
    // Subjects, actors and tokens are picked from lists.
    await filters.getByLabel('Project').selectOption('shop');
    const subject = filters.getByLabel('Subject', { exact: true });
    await subject.locator('option', { hasText: 'flag banner' }).waitFor({ state: 'attached' });
    for (const label of ['Subject', 'Actor', 'Management token']) {
      expect(await filters.getByLabel(label, { exact: true }).evaluate((el) => el.tagName), label).toBe('SELECT');
    }
    await subject.selectOption({ label: 'flag banner' });
    await filters.getByLabel('Actor', { exact: true }).selectOption({ label: vexil.ownerEmail });
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    await expect
      .poll(async () => (await rows.locator('.audit-sentence').allInnerTexts()).every((t) => t.startsWith(vexil.ownerEmail)))
      .toBe(true);
    expect(await seriousViolations(wide)).toEqual([]);
    await wide.goto(`${vexil.baseUrl}/audit`);
    await switched.waitFor();
    await screenshot(wide, '41-audit-log-1440');
    await otherLooks('/audit', 'audit-log', (page) => page.locator('.audit-sentence').first().waitFor());
  });

  it('5: the split editor shows % on its inputs, one line per share, and a bar that follows the weights as they are typed', async () => {
    await wide.goto(vexil.baseUrl + bannerPath);
    const staging = environmentPanel(wide, 'Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const base = staging.getByRole('form', { name: 'Base split in Staging' });
    await base.getByLabel('Use a weighted split for the base').check();
    await base.getByLabel('Split value 1 of the base', { exact: true }).selectOption({ label: 'Hello' });
    await base.getByLabel('Split value 2 of the base', { exact: true }).selectOption({ label: 'Sale' });
    const percent = base.getByLabel('Percent for split value 1 of the base');
    // The unit beside the input, on the same line as the value.
    const unit = base.locator('.split-shares > li').first().locator('.unit');
    expect(await unit.innerText()).toBe('%');
    const valueBox = (await base.getByLabel('Split value 1 of the base', { exact: true }).boundingBox())!;
    const percentBox = (await percent.boundingBox())!;
    expect(Math.abs(valueBox.y + valueBox.height - (percentBox.y + percentBox.height))).toBeLessThan(6);
    // The bar follows the typing, before anything is saved.
    const bar = base.getByRole('img', { name: /Shares of the base/ });
    const share = (name: string) => bar.locator(`.share[data-value="${name}"]`);
    const ratio = async (name: string) => (await share(name).boundingBox())!.width / (await bar.boundingBox())!.width;
    expect(await ratio('Hello')).toBeCloseTo(0.5, 1);
    await percent.fill('70');
    await base.getByLabel('Percent for split value 2 of the base').fill('30');
    await expect.poll(() => ratio('Hello')).toBeCloseTo(0.7, 1);
    expect(await ratio('Sale')).toBeCloseTo(0.3, 1);
    expect(await bar.getAttribute('aria-label')).toBe('Shares of the base: Hello 70 %, Sale 30 %');
    await base.getByText('Hello: about 70 of every 100 contexts get it').waitFor();
    await base.getByRole('button', { name: 'Save the base split in Staging' }).click();
    await expect
      .poll(async () => {
        const targets = (await vexil.ok('GET', `${bannerPath}/environments/staging/targets`)) as Array<{ status: string; split: unknown }>;
        return targets.find((t) => t.status === 'draft')?.split ?? null;
      })
      .not.toBeNull();
    expect(await seriousViolations(wide)).toEqual([]);
    await base.scrollIntoViewIfNeeded();
    await screenshot(wide, '41-split-editor-1440');
    await otherLooks(bannerPath, 'split-editor', (page) =>
      environmentPanel(page, 'Staging')
        .getByRole('img', { name: /Shares of the base/ })
        .waitFor(),
    );
  });

  it('6: the webhook card names its event filters as its form does', async () => {
    await vexil.ok('POST', '/projects/shop/webhooks', { url: 'http://127.0.0.1:9/vexil', events: ['target.*', 'flag.*'] });
    await wide.goto(`${vexil.baseUrl}/projects/shop/webhooks`);
    const card = wide.locator('article', { has: wide.getByRole('heading', { name: /127\.0\.0\.1:9/ }) });
    const events = card.locator('dt', { hasText: 'Events' }).locator('xpath=following-sibling::dd[1]');
    expect(await events.innerText()).toBe('publishes and rollouts, flags');
    expect(await seriousViolations(wide)).toEqual([]);
    await screenshot(wide, '41-webhooks-1440');
    await otherLooks('/projects/shop/webhooks', 'webhooks', (page) => page.getByRole('heading', { name: /127\.0\.0\.1:9/ }).waitFor());
  });

  describe('7: the smaller things', () => {
    const noticePath = '/projects/shop/flags/notice';
    beforeAll(async () => {
      // A string flag: nothing published in production; in staging a manual rollout at 50 %
      // that the switch then stops.
      await vexil.ok('POST', '/projects/shop/flags', { key: 'notice', name: 'Notice', type: 'string' });
      const hi = (await vexil.ok('POST', `${noticePath}/values`, { display: 'Hi' })).ulid as string;
      const bye = (await vexil.ok('POST', `${noticePath}/values`, { display: 'Bye' })).ulid as string;
      expect(hi).not.toBe(bye);
      const targets = `${noticePath}/environments/staging/targets`;
      const draft = await vexil.ok('POST', targets);
      await vexil.ok('PUT', `${targets}/${draft.ulid}`, { value_ulid: bye });
      await vexil.ok('PUT', `${targets}/${draft.ulid}/publish`, {
        comment: 'half of them',
        rollout_enabled: true,
        rollout_mode: 'manual',
        rollout_percentage: 50,
      });
      await vexil.ok('POST', `${noticePath}/environments/staging/switch`, { on: false, comment: 'Kill switch: notice' });
      await wide.goto(vexil.baseUrl + noticePath);
      await openEnvironment(wide, 'Staging');
      await environmentPanel(wide, 'Staging').getByText('History in Staging').click();
    });
    const historyRow = (text: string) => environmentPanel(wide, 'Staging').locator('tbody tr', { hasText: text });

    it('says in the history that the switch stopped a rollout at 50 %', async () => {
      const row = historyRow('half of them');
      expect(await row.locator('td').nth(3).innerText()).toBe('manual rollout stopped at 50% by a newer publish');
    });

    it('names in the restore dialog the publish as the history does, the exact time on hover', async () => {
      const row = historyRow('half of them');
      // The Published column (the dialog's heading, in the row too, has its own time).
      const published = row.locator('td').nth(4).locator('time');
      expect(await published.innerText()).toBe('just now');
      await row.getByRole('button', { name: /^Restore the publish of/ }).click();
      const dialog = wide.getByRole('dialog', { name: 'Restore the publish made just now in Staging' });
      const time = dialog.getByRole('heading').locator('time');
      expect(await time.getAttribute('title')).toBe(await published.getAttribute('title'));
      expect(await seriousViolations(wide)).toEqual([]);
      await screenshot(wide, '41-restore-dialog-1440');
      await dialog.getByRole('button', { name: 'Close dialog' }).click();
      await dialog.waitFor({ state: 'hidden' });
    });

    it("emphasises Try it's value served and its reason", async () => {
      const staging = environmentPanel(wide, 'Staging');
      await staging.getByRole('button', { name: 'Evaluate in Staging' }).click();
      const answer = staging.getByTestId('try-staging');
      await answer.waitFor();
      const strong = answer.locator('strong');
      const texts = await strong.allInnerTexts();
      expect(texts.slice(0, 2)).toEqual(['"Hi"', 'target']);
      for (const i of [0, 1]) {
        expect(Number(await strong.nth(i).evaluate((el) => getComputedStyle(el).fontWeight))).toBeGreaterThanOrEqual(600);
      }
      await screenshot(wide, '41-try-it-1440');
    });

    it("keeps the switch its own width when it shows the API's refusal", async () => {
      const toggle = wide.getByRole('switch', { name: 'notice in Production' }).first();
      const before = (await toggle.boundingBox())!;
      await toggle.click();
      const refusal = toggle.locator('xpath=..').getByRole('alert');
      await refusal.getByText(/Nothing was published on in production/).waitFor();
      const after = (await toggle.boundingBox())!;
      expect(Math.abs(after.width - before.width)).toBeLessThan(1);
      expect((await refusal.boundingBox())!.width).toBeGreaterThan(after.width);
      expect(await seriousViolations(wide)).toEqual([]);
      await screenshot(wide, '41-switch-error-1440');
    });
  });
});
