import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { signedInPage } from './admin-support.js';
import { bannerPath, environmentPanel, seedShop, openEnvironment } from './shop.js';

type Attributes = Array<{ key: string; values: Array<{ value: string }> }>;
const attributes = (pairs: Record<string, string>): Attributes =>
  Object.entries(pairs).map(([key, value]) => ({ key, values: [{ value }] }));

// The flag page and the draft editor beyond the main journey: details, values, rules with several
// criteria, reordering, field-keyed errors, rollout changes with typed confirmation, try it.
describe('the console flag page and draft editor', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  const keys: Record<string, string> = {};
  const flagPath = bannerPath;

  /** What GET /v1/flags/{key} serves in an environment for a context. */
  async function served(environment: string, context: { type?: string; identifier: string; attributes?: Attributes }) {
    const res = await fetch(`${vexil.baseUrl}/v1/flags/banner`, {
      headers: {
        'x-vexil-api-key': keys[environment] as string,
        'x-vexil-context': JSON.stringify({ type: 'user', attributes: [], ...context }),
      },
    });
    return res.status === 200
      ? ((await res.json()) as { data: { flag: { value: { string: string } } } }).data.flag.value.string
      : res.status;
  }

  const valueRow = (display: string) =>
    page.locator('ul.values > li', { has: page.locator('code', { hasText: new RegExp(`^${display}$`) }) });
  const panel = (environment: string) => environmentPanel(page, environment);

  /** The message shown beside a control: the field error its aria-describedby names. */
  async function fieldError(control: Locator): Promise<string> {
    await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ');
    const error = page.locator(`[id="${ids.at(-1)}"]`);
    expect(await error.getAttribute('class')).toBe('field-error');
    // Beside the control: in the same field wrapper.
    expect(await control.locator('xpath=ancestor::div[contains(@class,"field")][1]').locator('.field-error').innerText()).toBe(
      await error.innerText(),
    );
    return error.innerText();
  }

  async function rulesOf(
    environment: string,
  ): Promise<
    Array<{ description: string; criteria: { data: Array<{ sub_selector: string | null; values: { data: Array<{ value: string }> } }> } }>
  > {
    const targets = await vexil.api('GET', `${flagPath}/environments/${environment}/targets`);
    const draft = targets.body.data.find((t: { status: string }) => t.status === 'draft');
    return (await vexil.api('GET', `${flagPath}/environments/${environment}/targets/${draft.ulid}/rules`)).body.data;
  }

  async function publishIn(environment: string, name: string): Promise<void> {
    await openEnvironment(page, name);
    await panel(name)
      .getByRole('button', { name: `Review and publish in ${name}…` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Publish in ${name}` });
    await dialog.getByRole('button', { name: `Publish to ${name}` }).click();
    await panel(name)
      .getByRole('button', { name: `New draft in ${name}` })
      .waitFor();
    expect(environment).toBeTruthy();
  }

  beforeAll(async () => {
    vexil = await startVexil();
    await seedShop(vexil);
    await vexil.ok('PUT', '/projects/shop/environments/production', { name: 'Production', confirmation_required: true, color: '#b91c1c' });
    for (const environment of ['staging', 'production'])
      keys[environment] = (await vexil.ok('POST', `/projects/shop/environments/${environment}/keys`, { kind: 'server' })).key;
    // Contexts seen in staging become the editors' suggestions.
    await served('staging', { type: 'organization', identifier: 'acme', attributes: attributes({ plan: 'pro', country: 'FR' }) });
    await served('staging', { identifier: 'u-2', attributes: attributes({ plan: 'free' }) });
    for (let i = 0; i < 100; i++) {
      if ((await vexil.api('GET', '/projects/shop/environments/staging/context-attributes')).body.data.attributes.length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('edits which payloads carry the flag and a value display, and shows why a value in use cannot be deleted', async () => {
    await page.goto(vexil.baseUrl + flagPath);
    const details = page.getByRole('form', { name: 'Flag details' });
    await details.getByLabel('In client (browser) payloads').uncheck();
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect
      .poll(async () => (await vexil.api('GET', flagPath)).body.data)
      .toMatchObject({ include_in_client: false, include_in_mobile: true });
    await details.getByLabel('In mobile payloads').uncheck();
    await details.getByLabel('In client (browser) payloads').check();
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect
      .poll(async () => (await vexil.api('GET', flagPath)).body.data)
      .toMatchObject({ include_in_client: true, include_in_mobile: false });
    expect(await details.getByLabel('In mobile payloads').isChecked()).toBe(false);

    await page.getByRole('button', { name: 'Edit Gift' }).click();
    await page.getByLabel('New display of Gift').fill('Present');
    await page.getByRole('button', { name: 'Save value' }).click();
    await page.locator('ul.values code', { hasText: /^Present$/ }).waitFor();
    const displays = (await vexil.api('GET', `${flagPath}/values`)).body.data.map((v: { display: string }) => v.display);
    expect(displays).toEqual(['Hello', 'Sale', 'Present']);

    // The default value cannot go: the API's reason is shown beside it, and it stays.
    await page.getByRole('button', { name: 'Delete Hello' }).click();
    const reason = valueRow('Hello').getByRole('alert');
    await reason.waitFor();
    expect(await reason.locator('.error-words').innerText()).toMatch(
      /^The value "Hello" is the flag's default value and cannot be deleted/,
    );
    expect(await reason.locator('details').textContent()).toContain('state_conflict');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '11-flag-values');
    expect((await vexil.api('GET', `${flagPath}/values`)).body.data).toHaveLength(3);
  });

  it('builds a rule with several criteria from observed attributes, a segment rule, and edits a rule', async () => {
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const form = staging.getByRole('form', { name: 'New rule in Staging' });
    await form.getByLabel('Rule description').fill('Pro plan');
    const attribute = form.getByLabel('Attribute of criterion 1', { exact: true });
    // Attribute names seen in this environment are offered, then the values seen for the chosen one.
    const names = await page
      .locator(`datalist[id="${await attribute.getAttribute('list')}"] option`)
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(names.sort()).toEqual(['country', 'plan']);
    await attribute.fill('plan');
    await form.getByText(/^Seen: (pro, free|free, pro)$/).waitFor();
    const values = form.getByLabel('Values of criterion 1 (comma-separated)');
    await values.fill('pro, ');
    const offered = await page
      .locator(`datalist[id="${await values.getAttribute('list')}"] option`)
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(['pro, free']);
    await values.fill('pro');
    await form.getByRole('button', { name: 'Add a criterion to new rule in Staging' }).click();
    await form.getByLabel('Attribute of criterion 2', { exact: true }).fill('country');
    await form.getByLabel('Values of criterion 2 (comma-separated)').fill('FR');
    await form.getByLabel('Serve').selectOption({ label: 'Sale' });
    await form.getByRole('button', { name: 'Add rule' }).click();
    await staging.getByText('attribute plan equal pro and attribute country equal FR').waitFor();

    await form.getByLabel('Rule description').fill('Beta');
    await form.getByLabel('Selector of criterion 1').selectOption('segment');
    // Comparers follow the selector: a segment criterion offers only the four the API allows.
    const comparers = await form.getByLabel('Comparer of criterion 1').locator('option').allInnerTexts();
    expect(comparers).toEqual(['equal', 'notequal', 'in', 'notin']);
    await form.getByText('Segments: beta').waitFor();
    await form.getByLabel('Segment keys of criterion 1 (comma-separated)').fill('beta');
    await form.getByLabel('Serve').selectOption({ label: 'Present' });
    await form.getByRole('button', { name: 'Add rule' }).click();
    await staging.getByText('segment equal beta').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await staging.getByRole('button', { name: 'Edit Pro plan' }).click();
    const edit = staging.getByRole('form', { name: 'Edit rule Pro plan' });
    await edit.getByRole('button', { name: 'Remove criterion 2' }).click();
    await edit.getByLabel('Comparer of criterion 1').selectOption('in');
    await edit.getByLabel('Values of criterion 1 (comma-separated)').fill('pro, team');
    await screenshot(page, '12-rule-editor');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await staging.getByText('attribute plan in pro, team').waitFor();
    const rules = await rulesOf('staging');
    expect(rules.map((r) => r.description)).toEqual(['Pro plan', 'Beta']);
    expect(rules[0]?.criteria.data).toEqual([
      expect.objectContaining({
        selector: 'attribute',
        sub_selector: 'plan',
        comparer: 'in',
        values: { data: [{ value: 'pro' }, { value: 'team' }] },
      }),
    ]);

    // A value a rule serves is in use: the reason is shown beside it.
    await page.getByRole('button', { name: 'Delete Present' }).click();
    const reason = valueRow('Present').getByRole('alert');
    await reason.waitFor();
    expect(await reason.locator('.error-words').innerText()).toMatch(
      /^The value "Present" cannot be deleted while it is in use: it is referenced by/,
    );
    expect(await reason.locator('details').textContent()).toContain('value_in_use');
    expect((await vexil.api('GET', `${flagPath}/values`)).body.data).toHaveLength(3);
  });

  it('reorders rules with the keyboard and by dragging, which changes what is served', async () => {
    const staging = panel('Staging');
    const proBeta = { identifier: 'u-beta', attributes: attributes({ plan: 'pro' }) };
    const order = () => staging.locator('ol.rules > li strong').allInnerTexts();
    expect(await order()).toEqual(['Pro plan', 'Beta']);
    await staging.getByRole('button', { name: 'Move Beta up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(order).toEqual(['Beta', 'Pro plan']);
    expect((await rulesOf('staging')).map((r) => r.description)).toEqual(['Beta', 'Pro plan']);
    await publishIn('staging', 'Staging');
    expect(await served('staging', proBeta)).toBe('Present');

    // A new draft copies the rules; drag Beta below Pro plan.
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    await expect.poll(order).toEqual(['Beta', 'Pro plan']);
    // The browser's drag events, from Beta onto Pro plan, sharing one DataTransfer as a real drag.
    const target = await staging.locator('ol.rules > li', { hasText: 'Pro plan' }).elementHandle();
    await staging.locator('ol.rules > li', { hasText: 'Beta' }).evaluate(async (source, onto) => {
      const dataTransfer = new DataTransfer();
      const fire = (element: Element, type: string) =>
        element.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer }));
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      fire(source, 'dragstart');
      await frame();
      fire(onto!, 'dragenter');
      fire(onto!, 'dragover');
      await frame();
      fire(onto!, 'drop');
      fire(source, 'dragend');
    }, target);
    await expect.poll(order).toEqual(['Pro plan', 'Beta']);
    expect((await rulesOf('staging')).map((r) => r.description)).toEqual(['Pro plan', 'Beta']);
    await publishIn('staging', 'Staging');
    expect(await served('staging', proBeta)).toBe('Sale');
  });

  it('shows 422 messages beside the field they belong to, selects included', async () => {
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const form = staging.getByRole('form', { name: 'New rule in Staging' });
    await form.getByLabel('Rule description').fill('No values');
    await form.getByLabel('Attribute of criterion 1', { exact: true }).fill('plan');
    await form.getByRole('button', { name: 'Add rule' }).click();
    expect(await fieldError(form.getByLabel('Values of criterion 1 (comma-separated)'))).toMatch(
      /criteria\.0\.values field must contain at least one value/,
    );
    // A nested key of the second criterion reaches the second criterion's field only.
    await form.getByLabel('Values of criterion 1 (comma-separated)').fill('pro');
    await form.getByRole('button', { name: 'Add a criterion to new rule in Staging' }).click();
    await form.getByLabel('Comparer of criterion 2').selectOption('gt');
    await form.getByLabel('Attribute of criterion 2', { exact: true }).fill('seats');
    await form.getByLabel('Values of criterion 2 (comma-separated)').fill('many');
    await form.getByRole('button', { name: 'Add rule' }).click();
    expect(await fieldError(form.getByLabel('Values of criterion 2 (comma-separated)'))).toMatch(
      /criteria\.1\.values\.0 field must be a number/,
    );
    expect(await form.getByLabel('Values of criterion 1 (comma-separated)').getAttribute('aria-invalid')).toBe('false');
    await form.getByRole('button', { name: 'Remove criterion 2' }).click();

    // A value removed meanwhile: the API's message appears beside the Serve select.
    const temp = await vexil.api('POST', `${flagPath}/values`, { display: 'Temporary' });
    await page.reload();
    const again = panel('Staging').getByRole('form', { name: 'New rule in Staging' });
    await again.getByLabel('Rule description').fill('Stale value');
    await again.getByLabel('Attribute of criterion 1', { exact: true }).fill('plan');
    await again.getByLabel('Values of criterion 1 (comma-separated)').fill('pro');
    await again.getByLabel('Serve').selectOption({ label: 'Temporary' });
    expect((await vexil.api('DELETE', `${flagPath}/values/${temp.body.data.ulid}`)).status).toBe(200);
    await again.getByRole('button', { name: 'Add rule' }).click();
    expect(await fieldError(again.getByLabel('Serve'))).toMatch(/value_ulid/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '13-field-errors');
    await panel('Staging').getByRole('button', { name: 'Discard draft in Staging' }).click();

    // A flag key with capitals, on the flags screen.
    await page.goto(`${vexil.baseUrl}/projects/shop/flags`);
    const create = page.locator('form', { has: page.getByRole('button', { name: 'Create flag' }) });
    await create.getByLabel('Key').fill('Bad-Key');
    await create.getByLabel('Name').fill('Bad key');
    await create.getByRole('button', { name: 'Create flag' }).click();
    expect(await fieldError(create.getByLabel('Key'))).toMatch(/key/i);
  });

  it('changes the percentage of a rollout and removes it, each confirmed by typing where the environment requires it', async () => {
    await page.goto(vexil.baseUrl + flagPath);
    await openEnvironment(page, 'Production');
    const production = panel('Production');
    await production.getByRole('button', { name: 'New draft in Production' }).click();
    await production.getByLabel('Base value').selectOption({ label: 'Sale' });
    // Rollouts start from a draft, in the publish dialog (the API configures them only on drafts).
    await production.getByRole('button', { name: 'Review and publish in Production…' }).click();
    const publish = page.getByRole('dialog', { name: 'Publish in Production' });
    await publish.getByLabel('manual').check();
    await publish.getByLabel('Percentage').fill('20');
    await publish.getByLabel('Type production to publish in Production').fill('production');
    await publish.getByRole('button', { name: 'Publish to Production' }).click();
    await production.getByText('Rollout: manual, 20%, active').waitFor();
    // Focus went to the environment's heading: the button pressed is gone.
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Production');

    await production.getByLabel('New percentage').fill('50');
    await production.getByRole('button', { name: 'Set percentage' }).click();
    const confirm = page.getByRole('dialog', { name: 'Set the rollout to 50% in Production' });
    const apply = confirm.getByRole('button', { name: 'Set the rollout to 50%' });
    expect(await apply.isDisabled()).toBe(true);
    await confirm.getByLabel('Type production to change the rollout in Production').fill('production');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '14-rollout-confirmation');
    await apply.click();
    await production.getByText('Rollout: manual, 50%, active').waitFor();
    const targets = await vexil.api('GET', `${flagPath}/environments/production/targets`);
    expect(targets.body.data[0]).toMatchObject({ status: 'published', rollout_percentage: 50, rollout_status: 'active' });

    // Escape cancels, and focus returns to the button that opened the dialog.
    await production.getByRole('button', { name: 'Pause rollout' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Pause rollout in Production' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pause rollout');
    await production.getByText('Rollout: manual, 50%, active').waitFor();

    await production.getByRole('button', { name: 'Remove rollout' }).click();
    const remove = page.getByRole('dialog', { name: 'Remove rollout in Production' });
    await remove.getByLabel('Type production to change the rollout in Production').fill('production');
    await remove.getByRole('button', { name: 'Remove rollout' }).click();
    await production.getByRole('region', { name: 'Rollout in Production' }).waitFor({ state: 'detached' });
    // Everyone gets the new target now.
    for (let i = 0; i < 20; i++) expect(await served('production', { identifier: `u-${i}` })).toBe('Sale');
  });

  it('tries the flag for a chosen context type and an attribute picked from the observed ones', async () => {
    await openEnvironment(page, 'Staging');
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const form = staging.getByRole('form', { name: 'New rule in Staging' });
    await form.getByLabel('Rule description').fill('Acme');
    await form.getByLabel('Selector of criterion 1').selectOption('context');
    await form.getByLabel('Context type of criterion 1 (optional)').fill('organization');
    await form.getByLabel('Identifiers of criterion 1 (comma-separated)').fill('acme');
    await form.getByLabel('Serve').selectOption({ label: 'Present' });
    await form.getByRole('button', { name: 'Add rule' }).click();
    await staging.getByText('context organization equal acme').waitFor();
    await publishIn('staging', 'Staging');

    const tryIt = staging.getByRole('form', { name: 'Try it in Staging' });
    const result = tryIt.getByTestId('try-staging');
    await tryIt.getByLabel('Identifier').fill('acme');
    await tryIt.getByRole('button', { name: 'Evaluate in Staging' }).click();
    await result.getByText('"Hello" (target)').waitFor();
    await tryIt.getByLabel('Observed context types').selectOption('organization');
    expect(await tryIt.getByLabel('Context type', { exact: true }).inputValue()).toBe('organization');
    await tryIt.getByRole('button', { name: 'Evaluate in Staging' }).click();
    await result.getByText('"Present" (rule)').waitFor();
    await tryIt.getByLabel('Add an observed attribute').selectOption({ label: 'plan = pro' });
    expect(await tryIt.getByLabel('Attribute 1 name').inputValue()).toBe('plan');
    expect(await tryIt.getByLabel('Attribute 1 value').inputValue()).toBe('pro');
    await tryIt.getByRole('button', { name: 'Evaluate in Staging' }).click();
    await result.getByText('"Sale" (rule)').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await tryIt.scrollIntoViewIfNeeded();
    await screenshot(page, '15-try-it');
  });
});
