import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { environmentPanel, openEnvironment } from './shop.js';

// What a person does in the console, in real Chromium against the real server process.
describe('the web console', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const keys: Record<string, string> = {};
  const project = 'shop';
  const xssName = '<img src=x onerror=alert(1)>';

  /** What GET /v1/flags/{key} serves in an environment for a context. */
  async function served(environment: string, flag: string, attributes: Array<{ key: string; values: Array<{ value: string }> }> = []) {
    const res = await fetch(`${vexil.baseUrl}/v1/flags/${flag}`, {
      headers: {
        'x-vexil-api-key': keys[environment] as string,
        'x-vexil-context': JSON.stringify({ type: 'user', identifier: 'u-1', attributes }),
      },
    });
    return res.status === 200 ? ((await res.json()) as { data: { flag: { value: Record<string, unknown> } } }).data.flag.value : res.status;
  }

  const panel = (environment: string) => environmentPanel(page, environment);

  beforeAll(async () => {
    vexil = await startVexil();
    expect(
      (
        await vexil.api('POST', '/projects', {
          key: project,
          name: 'Shop',
          description: '',
          environments: [
            { key: 'staging', name: 'Staging' },
            { key: 'production', name: 'Production' },
          ],
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await vexil.api('PUT', `/projects/${project}/environments/production`, {
          name: 'Production',
          confirmation_required: true,
          color: '#b91c1c',
        })
      ).status,
    ).toBe(200);
    for (const environment of ['staging', 'production']) {
      keys[environment] = (
        await vexil.api('POST', `/projects/${project}/environments/${environment}/keys`, { kind: 'server' })
      ).body.data.key;
    }
    expect((await vexil.api('POST', '/projects', { key: 'xss', name: xssName, description: xssName })).status).toBe(200);
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(vexil.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('signs in with email and password, reachable by keyboard alone', async () => {
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '01-sign-in');
    await page.keyboard.press('Tab');
    await page.keyboard.type(vexil.ownerEmail);
    await page.keyboard.press('Tab');
    await page.keyboard.type(vexil.ownerPassword);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // The session lives in an HttpOnly cookie only: nothing in the page's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect(stored).toBe('{}{}');
  });

  it('shows a hostile project name as text, and the main screen passes axe', async () => {
    await page.getByText(xssName, { exact: true }).waitFor();
    expect(dialogs).toEqual([]);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '02-projects');
  });

  it('creates a flag with values', async () => {
    await page.getByRole('link', { name: 'Flags of Shop' }).click();
    await page.getByRole('heading', { name: 'Flags of shop' }).waitFor();
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Create flag' }) });
    await form.getByLabel('Key').fill('banner');
    await form.getByLabel('Name').fill('Banner');
    await form.getByLabel('Type').selectOption('string');
    await form.getByRole('button', { name: 'Create flag' }).click();
    await page.getByRole('heading', { name: /Banner/ }).waitFor();
    for (const display of ['Hello', 'Sale']) {
      await page.getByLabel('New value').fill(display);
      await page.getByRole('button', { name: 'Add value' }).click();
      await page.getByRole('listitem').filter({ hasText: display }).first().waitFor();
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '03-flag');
  });

  it('builds a rule and publishes it where no confirmation is needed', async () => {
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const ruleForm = staging.getByRole('form', { name: 'New rule in Staging' });
    await ruleForm.getByLabel('Rule description').fill('Pro plan');
    await ruleForm.getByLabel('Attribute of criterion 1', { exact: true }).fill('plan');
    await ruleForm.getByLabel('Values of criterion 1 (comma-separated)').fill('pro');
    await ruleForm.getByLabel('Serve').selectOption({ label: 'Sale' });
    await ruleForm.getByRole('button', { name: 'Add rule' }).click();
    await staging.getByText('Pro plan').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '04-draft-editor');
    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    await staging.getByRole('button', { name: 'Publish to Staging' }).click();
    await staging.getByRole('button', { name: 'New draft in Staging' }).waitFor();
    expect(await served('staging', 'banner', [{ key: 'plan', values: [{ value: 'pro' }] }])).toEqual({ string: 'Sale' });
    expect(await served('staging', 'banner')).toEqual({ string: 'Hello' });
  });

  it('publishes in a confirmation_required environment only through the console, with the typed key', async () => {
    const draft = await vexil.api('POST', `/projects/${project}/flags/banner/environments/production/targets`);
    const bearer = await vexil.api(
      'PUT',
      `/projects/${project}/flags/banner/environments/production/targets/${draft.body.data.ulid}/publish`,
      { confirmation: 'production' },
    );
    expect(bearer.status).toBe(422);

    await page.reload();
    await openEnvironment(page, 'Production');
    const production = panel('Production');
    await production.getByLabel('Base value').selectOption({ label: 'Sale' });
    await production.getByRole('button', { name: 'Review and publish in Production…' }).click();
    await production.getByText('Type production to publish in Production').waitFor();
    const publish = production.getByRole('button', { name: 'Publish to Production' });
    expect(await publish.isDisabled()).toBe(true);
    await production.getByLabel('Type production to publish in Production').fill('production');
    await publish.click();
    const started = Date.now();
    let value: unknown;
    do {
      value = await served('production', 'banner');
    } while (JSON.stringify(value) !== '{"string":"Sale"}' && Date.now() - started < 1000);
    expect(value).toEqual({ string: 'Sale' });
  });

  it('starts, pauses, resumes and completes a rollout', async () => {
    await openEnvironment(page, 'Staging');
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    await staging.getByLabel('Base value').selectOption({ label: 'Sale' });
    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    await staging.getByLabel('manual').check();
    await staging.getByLabel('Percentage').fill('30');
    await staging.getByRole('button', { name: 'Publish to Staging' }).click();
    await staging.getByText('Rollout: manual, 30%, active').waitFor();
    await screenshot(page, '05-rollout');
    await staging.getByRole('button', { name: 'Pause rollout' }).click();
    await staging.getByText('Rollout: manual, 30%, paused').waitFor();
    await staging.getByRole('button', { name: 'Resume rollout' }).click();
    await staging.getByText('Rollout: manual, 30%, active').waitFor();
    await staging.getByRole('button', { name: 'Complete rollout' }).click();
    await staging.getByRole('button', { name: 'Pause rollout' }).waitFor({ state: 'detached' });
    expect(await served('staging', 'banner')).toEqual({ string: 'Sale' });
  });

  it('evaluates the flag for a typed context', async () => {
    await openEnvironment(page, 'Production');
    const production = panel('Production');
    await production.getByRole('button', { name: 'Evaluate in Production' }).click();
    await production.getByTestId('try-production').getByText('"Sale" (target)').waitFor();
  });

  it('finds the changes in the audit log, with who made them', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Action').fill('target.published');
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    const text = await page.locator('tbody').innerText();
    // One row per request, led by a sentence: who did what to which flag where.
    expect(text).toContain(`${vexil.ownerEmail} published banner in production`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '06-audit');
  });

  it('schedules a publish and cancels it', async () => {
    await page.goto(`${vexil.baseUrl}/projects/${project}/flags/banner`);
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    await staging.getByLabel('Schedule for (optional)').fill('2099-01-01T10:00');
    await staging.getByRole('button', { name: 'Publish to Staging' }).click();
    await staging.getByText('History in Staging').click();
    await staging.getByRole('button', { name: 'Cancel scheduled publish' }).click();
    await staging.getByRole('button', { name: 'Cancel scheduled publish' }).waitFor({ state: 'detached' });
    const targets = await vexil.api('GET', `/projects/${project}/flags/banner/environments/staging/targets`);
    expect(targets.body.data.some((t: { status: string }) => t.status === 'scheduled')).toBe(false);
  });

  it('lists flags with what each environment serves, and deletes the selected ones', async () => {
    await vexil.api('POST', `/projects/${project}/flags`, { key: 'old-switch', name: 'Old switch', type: 'boolean' });
    await page.goto(`${vexil.baseUrl}/projects/${project}/flags`);
    const banner = page.locator('tr', { hasText: 'banner' });
    await banner.getByText('production: Sale').waitFor();
    // Staging's rules choose the value; Sale is what it serves otherwise.
    await banner.getByText(/^staging: (rules, else )?Sale$/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '07-flags');
    await page.getByLabel('Select old-switch').check();
    await page.getByLabel('Type delete 1 to delete old-switch').fill('delete 1');
    await page.getByRole('button', { name: 'Delete selected flags' }).click();
    await page.locator('tr', { hasText: 'old-switch' }).waitFor({ state: 'detached' });
    expect((await vexil.api('GET', `/projects/${project}/flags/old-switch`)).status).toBe(404);
  });

  it('signs out, after which the session no longer works', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/management/v1/session')).status);
    expect(status).toBe(401);
  });
});
