import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { bannerPath, environmentPanel, seedShop } from './shop.js';

// Weighted splits in the console: the base split and a rule's split in the draft editor, the
// API's refusal shown at the split, the published split with its exposure counts, and Try it.
describe('the console split editor', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let serverKey: string;
  let ulids: Record<string, string>;

  const draftOf = async () => {
    const targets = (await vexil.api('GET', `${bannerPath}/environments/staging/targets`)).body.data as Array<{
      status: string;
      ulid: string;
    }>;
    return targets.find((t) => t.status === 'draft');
  };

  beforeAll(async () => {
    vexil = await startVexil();
    ulids = await seedShop(vexil);
    serverKey = (await vexil.ok('POST', '/projects/shop/environments/staging/keys', { kind: 'server' })).key;
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('edits a base split and a rule split, and shows the refusal of weights that do not make 100 %', async () => {
    await page.goto(vexil.baseUrl + bannerPath);
    const staging = environmentPanel(page, 'Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const base = staging.getByRole('form', { name: 'Base split in Staging' });
    await base.getByLabel('Use a weighted split for the base').check();
    await base.getByLabel('Split value 1 of the base', { exact: true }).selectOption({ label: 'Hello' });
    await base.getByLabel('Percent for split value 1 of the base').fill('50');
    await base.getByLabel('Split value 2 of the base', { exact: true }).selectOption({ label: 'Sale' });
    await base.getByLabel('Percent for split value 2 of the base').fill('40');
    await base.getByText('Total 90 % (must be 100 %)').waitFor();
    await base.getByRole('button', { name: 'Save the base split in Staging' }).click();
    await base.getByText(/must sum to 100000/).waitFor();
    expect((await draftOf())?.ulid).toBeTruthy();
    expect((await vexil.api('GET', `${bannerPath}/environments/staging/targets/${(await draftOf())!.ulid}`)).body.data.split).toBeNull();

    await base.getByLabel('Percent for split value 1 of the base').fill('34');
    await base.getByLabel('Percent for split value 2 of the base').fill('33');
    await base.getByRole('button', { name: 'Add a split value to the base' }).click();
    await base.getByLabel('Split value 3 of the base', { exact: true }).selectOption({ label: 'Gift' });
    await base.getByLabel('Percent for split value 3 of the base').fill('33');
    await base.getByText('Total 100 %', { exact: true }).waitFor();
    await base.getByRole('button', { name: 'Save the base split in Staging' }).click();
    await expect
      .poll(async () => (await vexil.api('GET', `${bannerPath}/environments/staging/targets/${(await draftOf())!.ulid}`)).body.data.split)
      .toEqual({
        attribute: null,
        shares: [
          { value_ulid: ulids.Hello, weight: 34000 },
          { value_ulid: ulids.Sale, weight: 33000 },
          { value_ulid: ulids.Gift, weight: 33000 },
        ],
      });

    const form = staging.getByRole('form', { name: 'New rule in Staging' });
    await form.getByLabel('Rule description').fill('Pro accounts');
    await form.getByLabel('Attribute of criterion 1', { exact: true }).fill('plan');
    await form.getByLabel('Values of criterion 1 (comma-separated)').fill('pro');
    await form.getByLabel('Use a weighted split for the new rule').check();
    await form.getByLabel('Bucket the new rule by attribute').fill('account');
    await form.getByLabel('Split value 1 of the new rule', { exact: true }).selectOption({ label: 'Sale' });
    await form.getByLabel('Percent for split value 1 of the new rule').fill('25.5');
    await form.getByLabel('Split value 2 of the new rule', { exact: true }).selectOption({ label: 'Gift' });
    await form.getByLabel('Percent for split value 2 of the new rule').fill('74.5');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await staging.getByText('Sale 25.5 %, Gift 74.5 % by attribute account').waitFor();
    const rules = (await vexil.api('GET', `${bannerPath}/environments/staging/targets/${(await draftOf())!.ulid}/rules`)).body.data;
    expect(rules[0].split).toEqual({
      attribute: 'account',
      shares: [
        { value_ulid: ulids.Sale, weight: 25500 },
        { value_ulid: ulids.Gift, weight: 74500 },
      ],
    });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '30-split-editor');
  });

  it('shows the published split with the contexts each value reached, and Try it names the split', async () => {
    const staging = environmentPanel(page, 'Staging');
    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    await page.getByRole('dialog', { name: 'Publish in Staging' }).getByRole('button', { name: 'Publish to Staging' }).click();
    await staging.getByRole('button', { name: 'New draft in Staging' }).waitFor();
    await staging.getByText(/split of the base: Hello 34 %, Sale 33 %, Gift 33 % by identifier/).waitFor();

    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${vexil.baseUrl}/v1/flags/banner`, {
        headers: { 'x-vexil-api-key': serverKey, 'x-vexil-context': JSON.stringify({ type: 'user', identifier: `visitor-${i}` }) },
      });
      expect(res.status).toBe(200);
    }
    // Exposure counts are written in batches: wait for all 20 contexts, then show the page.
    const stored = async () =>
      ((await vexil.api('GET', `${bannerPath}/environments/staging/exposures`)).body.data as Array<{ contexts: number }>).reduce(
        (sum, r) => sum + r.contexts,
        0,
      );
    await expect.poll(stored, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(19);
    await page.goto(vexil.baseUrl + bannerPath);
    const table = environmentPanel(page, 'Staging').getByRole('table', { name: 'Contexts each split value reached in Staging, per day' });
    await table.waitFor({ timeout: 60_000 });
    const counts = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => Number((row.lastElementChild as HTMLElement).innerText)));
    const total = counts.reduce((a, b) => a + b, 0);
    // Distinct counts are approximate (a sketch); at this size they are exact but for a rare collision.
    expect(total).toBe(await stored());
    expect(total).toBeGreaterThanOrEqual(19);
    expect(total).toBeLessThanOrEqual(21);

    const tryIt = environmentPanel(page, 'Staging').getByRole('form', { name: 'Try it in Staging' });
    await tryIt.getByLabel('Identifier').fill('visitor-1');
    await tryIt.getByRole('button', { name: 'Evaluate in Staging' }).click();
    await tryIt
      .getByTestId('try-staging')
      .getByText(/\(target; split of the base, 3[34] %\)/)
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '31-split-exposures');
  });
});
