import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { signedInPage } from './admin-support.js';
import { bannerPath, environmentPanel, seedShop } from './shop.js';

// The draft editor's version, date and pattern comparers and its prerequisites section, then
// "Try it" on what they publish.
describe('the console: new comparers and prerequisites', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;

  async function draftOf(environment: string) {
    const targets = await vexil.api('GET', `${bannerPath}/environments/${environment}/targets`);
    return targets.body.data.find((t: { status: string }) => t.status === 'draft');
  }

  beforeAll(async () => {
    vexil = await startVexil();
    await seedShop(vexil);
    await vexil.ok('POST', '/projects/shop/flags', { key: 'checkout', name: 'Checkout', type: 'boolean' });
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('offers the version, date and pattern comparers; a pattern is one value even with commas', async () => {
    await page.goto(vexil.baseUrl + bannerPath);
    const staging = environmentPanel(page, 'Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const form = staging.getByRole('form', { name: 'New rule in Staging' });
    await form.getByLabel('Comparer of criterion 1').locator('option', { hasText: 'matches' }).waitFor({ state: 'attached' });
    const comparers = await form.getByLabel('Comparer of criterion 1').locator('option').allInnerTexts();
    for (const c of ['semver_eq', 'semver_lt', 'semver_gt', 'semver_lte', 'semver_gte', 'before', 'after', 'matches']) {
      expect(comparers).toContain(c);
    }
    await form.getByLabel('Rule description').fill('New apps');
    await form.getByLabel('Attribute of criterion 1', { exact: true }).fill('app_version');
    await form.getByLabel('Comparer of criterion 1').selectOption('semver_gte');
    await form.getByText('Versions such as 1.2.3 or 2.0.0-beta.1').waitFor();
    await form.getByLabel('Values of criterion 1 (comma-separated)').fill('2.0.0, v3.0.0-rc.1');
    await form.getByRole('button', { name: 'Add a criterion to new rule in Staging' }).click();
    await form.getByLabel('Attribute of criterion 2', { exact: true }).fill('code');
    await form.getByLabel('Comparer of criterion 2').selectOption('matches');
    await form.getByLabel('Pattern of criterion 2').fill('^\\d{2,4}$');
    await form.getByLabel('Serve').selectOption({ label: 'Sale' });
    await form.getByRole('button', { name: 'Add rule' }).click();
    await staging.getByText('attribute app_version semver_gte 2.0.0, v3.0.0-rc.1 and attribute code matches ^\\d{2,4}$').waitFor();
    const draft = await draftOf('staging');
    const rules = (await vexil.api('GET', `${bannerPath}/environments/staging/targets/${draft.ulid}/rules`)).body.data;
    expect(rules[0].criteria.data.map((c: { values: { data: { value: string }[] } }) => c.values.data.map((v) => v.value))).toEqual([
      ['2.0.0', 'v3.0.0-rc.1'],
      ['^\\d{2,4}$'],
    ]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('adds and removes prerequisites on the draft, and Try it says when one decided', async () => {
    const staging = environmentPanel(page, 'Staging');
    const section = staging.getByRole('region', { name: 'Prerequisites in Staging' });
    await section.getByText('None.').waitFor();
    const add = section.getByRole('form', { name: 'Add a prerequisite in Staging' });
    await add.getByLabel('Required flag').locator('option', { hasText: 'checkout' }).waitFor({ state: 'attached' });
    const flags = await add.getByLabel('Required flag').locator('option').allInnerTexts();
    expect(flags).toEqual(['Choose a flag', 'checkout']);
    await add.getByLabel('Required flag').selectOption('checkout');
    await add.getByLabel('Required value').selectOption({ label: 'true' });
    await add.getByRole('button', { name: 'Add prerequisite' }).click();
    await section.getByText('checkout serves true').waitFor();
    const draft = await draftOf('staging');
    const stored = (await vexil.api('GET', `${bannerPath}/environments/staging/targets/${draft.ulid}/prerequisites`)).body.data;
    expect(stored.map((p: { flag_key: string }) => p.flag_key)).toEqual(['checkout']);
    expect(await seriousViolations(page)).toEqual([]);

    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    await page.getByRole('dialog', { name: 'Publish in Staging' }).getByRole('button', { name: 'Publish to Staging' }).click();
    await staging.getByRole('button', { name: 'New draft in Staging' }).waitFor();
    await staging.getByText(/Only while checkout serves one of its 1 required value; otherwise the default value/).waitFor();

    // checkout serves its default (false) in staging: the prerequisite fails, banner serves its default
    const tryIt = staging.getByRole('form', { name: 'Try it in Staging' });
    await tryIt.getByLabel('Identifier').fill('u-1');
    await tryIt.getByRole('button', { name: 'Evaluate in Staging' }).click();
    await tryIt
      .getByTestId('try-staging')
      .getByText(/"Hello" \(prerequisite\) A prerequisite flag did not serve a required value/)
      .waitFor();

    // a new draft starts with the published prerequisites; removing one saves the list at once
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    await section.getByText('checkout serves true').waitFor();
    await section.getByRole('button', { name: 'Remove prerequisite checkout' }).click();
    await section.getByText('None.').waitFor();
    const next = await draftOf('staging');
    expect((await vexil.api('GET', `${bannerPath}/environments/staging/targets/${next.ulid}/prerequisites`)).body.data).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
