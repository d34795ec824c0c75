import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { environmentPanel } from './shop.js';

// Actions of the projects screen and the flag page, each checked on the screen and in the API:
// creating a project, editing a flag's details, choosing the default value, publishing where a
// comment is required, the history of targets, and the per-flag insights.
describe('the console: projects, flag details, comments and history', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let stagingKey = '';
  const flagPath = '/projects/shop/flags/banner';

  const panel = (name: string) => environmentPanel(page, name);
  const valueRow = (display: string) =>
    page.locator('ul.values > li', { has: page.locator('code', { hasText: new RegExp(`^${display}$`) }) });

  /** The message shown beside a control: the field error its aria-describedby names, in the same field. */
  async function fieldError(control: Locator): Promise<string> {
    await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
    const id = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').at(-1);
    const error = control.locator('xpath=ancestor::div[contains(@class,"field")][1]').locator('.field-error');
    expect(await error.getAttribute('id')).toBe(id);
    return error.innerText();
  }

  /** What GET /v1/flags/banner serves in staging (this is also an evaluation the insights count). */
  async function served(): Promise<string> {
    const res = await fetch(`${vexil.baseUrl}/v1/flags/banner`, {
      headers: { 'x-vexil-api-key': stagingKey, 'x-vexil-context': JSON.stringify({ type: 'user', identifier: 'u-1', attributes: [] }) },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { flag: { value: { string: string } } } }).data.flag.value.string;
  }

  const targets = async () =>
    (await vexil.ok('GET', `${flagPath}/environments/staging/targets`)) as Array<{
      ulid: string;
      status: string;
      comment: string | null;
      value_ulid: string;
    }>;

  /** The display of the value the staging draft serves as its base, as the API holds it. */
  async function draftBase(): Promise<string | undefined> {
    const values = (await vexil.ok('GET', `${flagPath}/values`)) as Array<{ ulid: string; display: string }>;
    const draft = (await targets()).find((t) => t.status === 'draft');
    return values.find((v) => v.ulid === draft?.value_ulid)?.display;
  }

  beforeAll(async () => {
    vexil = await startVexil();
    await vexil.ok('POST', '/projects', { key: 'shop', name: 'Shop', environments: [{ key: 'staging', name: 'Staging' }] });
    await vexil.ok('PUT', '/projects/shop/environments/staging', { name: 'Staging', comments_required: true });
    stagingKey = (await vexil.ok('POST', '/projects/shop/environments/staging/keys', { kind: 'server' })).key;
    await vexil.ok('POST', '/projects/shop/flags', { key: 'banner', name: 'Banner', type: 'string', description: 'The home page banner' });
    for (const display of ['Hello', 'Sale']) await vexil.ok('POST', `${flagPath}/values`, { display });
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('creates a project from the projects screen; a bad key gets the API message beside it', async () => {
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Create project' }) });
    await form.getByLabel('Key').fill('Garden Centre');
    await form.getByLabel('Name').fill('Garden');
    await form.getByLabel('Description').fill('Plants and pots');
    expect(
      await answerOf(page, 'POST', '/management/v1/projects', () => form.getByRole('button', { name: 'Create project' }).click()),
    ).toBe(422);
    expect(await fieldError(form.getByLabel('Key'))).toMatch(/key/);
    expect((await vexil.api('GET', '/projects/Garden%20Centre')).status).toBe(404);

    await form.getByLabel('Key').fill('garden');
    expect(
      await answerOf(page, 'POST', '/management/v1/projects', () => form.getByRole('button', { name: 'Create project' }).click()),
    ).toBe(200);
    await page.getByRole('link', { name: 'Garden', exact: true }).waitFor();
    // The form is emptied for the next one, and the new project's flags are one click away.
    expect(await form.getByLabel('Key').inputValue()).toBe('');
    expect(await form.getByLabel('Key').getAttribute('aria-invalid')).toBe('false');
    expect(await vexil.ok('GET', '/projects/garden')).toMatchObject({ key: 'garden', name: 'Garden', description: 'Plants and pots' });

    // The same key again: the API's message is beside the key and nothing is added.
    await form.getByLabel('Key').fill('garden');
    await form.getByLabel('Name').fill('Another garden');
    expect(
      await answerOf(page, 'POST', '/management/v1/projects', () => form.getByRole('button', { name: 'Create project' }).click()),
    ).toBe(422);
    expect(await fieldError(form.getByLabel('Key'))).toBe('The key has already been taken.');
    expect((await vexil.ok('GET', '/projects')).map((p: { key: string }) => p.key).sort()).toEqual(['garden', 'shop']);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Flags of Garden' }).click();
    await page.getByRole('heading', { name: 'Flags of garden' }).waitFor();
  });

  it("edits a flag's name, description and permanent flag", async () => {
    await page.goto(vexil.baseUrl + flagPath);
    const details = page.getByRole('form', { name: 'Flag details' });
    expect(await details.getByLabel('Description').inputValue()).toBe('The home page banner');
    await details.getByLabel('Name').fill('Home banner');
    await details.getByLabel('Description').fill('Shown above everything else');
    await details.getByLabel('Permanent (never stale)').check();
    expect(await answerOf(page, 'PUT', flagPath, () => details.getByRole('button', { name: 'Save details' }).click())).toBe(200);
    await page.getByRole('heading', { name: 'Home banner banner', level: 1 }).waitFor();
    expect(await vexil.ok('GET', flagPath)).toMatchObject({
      name: 'Home banner',
      description: 'Shown above everything else',
      permanent: true,
    });

    // After a reload the form shows what was saved; an emptied description is removed.
    await page.reload();
    const again = page.getByRole('form', { name: 'Flag details' });
    expect(await again.getByLabel('Name').inputValue()).toBe('Home banner');
    expect(await again.getByLabel('Permanent (never stale)').isChecked()).toBe(true);
    await again.getByLabel('Description').fill('');
    await again.getByLabel('Permanent (never stale)').uncheck();
    expect(await answerOf(page, 'PUT', flagPath, () => again.getByRole('button', { name: 'Save details' }).click())).toBe(200);
    expect(await vexil.ok('GET', flagPath)).toMatchObject({ name: 'Home banner', description: null, permanent: false });

    // An empty name is refused, with the API's message beside the field.
    await again.getByLabel('Name').fill('');
    expect(await answerOf(page, 'PUT', flagPath, () => again.getByRole('button', { name: 'Save details' }).click())).toBe(422);
    expect(await fieldError(again.getByLabel('Name'))).toMatch(/name/);
    expect((await vexil.ok('GET', flagPath)).name).toBe('Home banner');
    await again.getByLabel('Name').fill('Home banner');

    // What someone types after a save is kept when the page's reload of the flag comes back
    // (held here until the typing is done): the form is not put back to the saved values.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const flagUrl = (url: URL) => url.pathname === `/management/v1${flagPath}`;
    await page.route(flagUrl, async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    const reloaded = page.waitForResponse((r) => r.request().method() === 'GET' && flagUrl(new URL(r.url())));
    await again.getByLabel('Description').fill('Saved description');
    expect(await answerOf(page, 'PUT', flagPath, () => again.getByRole('button', { name: 'Save details' }).click())).toBe(200);
    await again.getByLabel('Name').fill('A name being typed');
    release();
    await reloaded;
    await page.getByRole('heading', { name: 'Home banner banner', level: 1 }).waitFor();
    expect(await again.getByLabel('Name').inputValue()).toBe('A name being typed');
    await page.unroute(flagUrl);
    await page.reload();
    expect(await page.getByRole('form', { name: 'Flag details' }).getByLabel('Name').inputValue()).toBe('Home banner');
  });

  it('makes another value the default: the list marks it and the API serves it where nothing is published', async () => {
    expect(await served()).toBe('Hello');
    expect(await valueRow('Hello').innerText()).toContain('(default)');
    await page.getByRole('button', { name: 'Make Sale the default' }).click();
    await valueRow('Sale').getByText('(default)').waitFor();
    expect(await valueRow('Hello').innerText()).not.toContain('(default)');
    // The default cannot be made the default again; the old default now can.
    expect(await page.getByRole('button', { name: 'Make Sale the default' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Make Hello the default' }).waitFor();
    const values = (await vexil.ok('GET', `${flagPath}/values`)) as Array<{ display: string; default: boolean }>;
    expect(values.map((v) => [v.display, v.default])).toEqual([
      ['Hello', false],
      ['Sale', true],
    ]);
    expect(await served()).toBe('Sale');
  });

  it('publishes where a comment is required only with one: without, the API message is beside the comment field', async () => {
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    await staging.getByLabel('Base value').selectOption({ label: 'Hello' });
    await expect.poll(draftBase).toBe('Hello');
    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish in Staging' });
    const comment = dialog.getByLabel('Comment (required here)');
    const publish = dialog.getByRole('button', { name: 'Publish to Staging' });

    // Empty: the browser asks for it before any request is sent.
    const publishes: string[] = [];
    const record = (r: { method(): string; url(): string }) =>
      void (r.method() === 'PUT' && r.url().endsWith('/publish') && publishes.push(r.url()));
    page.on('request', record);
    await publish.click();
    expect(await comment.evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true);
    await page.waitForTimeout(300);
    page.off('request', record);
    expect(publishes).toEqual([]);

    // Only blanks: the API refuses, and says why beside the field.
    await comment.fill('   ');
    expect(await answerOf(page, 'PUT', '/publish', () => publish.click())).toBe(422);
    expect(await fieldError(comment)).toBe('The comment field is required: this environment requires a comment to publish.');
    expect((await targets()).map((t) => t.status)).toEqual(['draft']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '22-publish-comment-required');

    await comment.fill('First release of the banner');
    expect(await answerOf(page, 'PUT', '/publish', () => publish.click())).toBe(200);
    await dialog.waitFor({ state: 'hidden' });
    await staging.getByRole('button', { name: 'New draft in Staging' }).waitFor();
    expect(await targets()).toEqual([expect.objectContaining({ status: 'published', comment: 'First release of the banner' })]);
    expect(await served()).toBe('Hello');
  });

  it('lists the expired target with its comment in the history after a second publish', async () => {
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    await staging.getByLabel('Base value').selectOption({ label: 'Sale' });
    await expect.poll(draftBase).toBe('Sale');
    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish in Staging' });
    await dialog.getByLabel('Comment (required here)').fill('Sale week');
    await dialog.getByRole('button', { name: 'Publish to Staging' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await staging.getByRole('button', { name: 'New draft in Staging' }).waitFor();

    const history = await targets();
    expect(history.map((t) => [t.status, t.comment])).toEqual([
      ['published', 'Sale week'],
      ['expired', 'First release of the banner'],
    ]);
    await staging.getByText('History in Staging').click();
    // The history's table, not the chart's (which reads again after the publish, with the evaluations made since).
    const rows = staging.locator('details', { has: page.getByText('History in Staging') }).locator('table tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll('td'))
          .slice(0, 3)
          .map((td) => td.textContent?.trim()),
      ),
    );
    expect(cells).toEqual([
      ['published', 'Sale', 'Sale week'],
      ['expired', 'Hello', 'First release of the banner'],
    ]);
    expect(await served()).toBe('Sale');
    await screenshot(page, '23-flag-history');
  });

  it('shows when a flag was last retrieved, used, evaluated and updated, once the public API was asked for it', async () => {
    // A flag of its own, which nothing has asked for yet.
    const greeting = '/projects/shop/flags/greeting';
    await vexil.ok('POST', '/projects/shop/flags', { key: 'greeting', name: 'Greeting', type: 'boolean' });
    const insights = async () => (await vexil.ok('GET', `${greeting}/environments/staging/insights`)) as Record<string, string | null>;
    await page.goto(vexil.baseUrl + greeting);
    const line = panel('Staging').getByText(/^Last retrieved /);
    await line.waitFor();
    const before = await insights();
    expect([before.last_retrieved_at, before.last_used_at, before.last_evaluated_at]).toEqual([null, null, null]);
    // Each time is relative, its exact value in the time element.
    const times = () => line.locator('time').evaluateAll((all) => all.map((t) => t.getAttribute('datetime')));
    expect(await line.innerText()).toMatch(
      /^Last retrieved never · used never · evaluated never · updated (never|just now|\d+ seconds? ago)$/,
    );
    expect(await times()).toEqual([before.last_updated_at].filter((at) => at !== null));

    // An evaluation, a retrieval of the payload and a reported use; telemetry is written in batches.
    const headers = {
      'x-vexil-api-key': stagingKey,
      'x-vexil-context': JSON.stringify({ type: 'user', identifier: 'u-1', attributes: [] }),
    };
    expect((await fetch(`${vexil.baseUrl}/v1/flags/greeting`, { headers })).status).toBe(200);
    expect((await fetch(`${vexil.baseUrl}/v1/payload`, { headers })).status).toBe(200);
    expect((await fetch(`${vexil.baseUrl}/v1/flags/greeting/usage`, { method: 'POST', headers })).status).toBe(200);
    let after = before;
    await expect
      .poll(async () => {
        after = await insights();
        return [after.last_retrieved_at, after.last_used_at, after.last_evaluated_at].every((at) => at !== null);
      })
      .toBe(true);
    await page.reload();
    await expect
      .poll(times)
      .toEqual([after.last_retrieved_at, after.last_used_at, after.last_evaluated_at, after.last_updated_at].filter((at) => at !== null));
    expect(await line.innerText()).not.toMatch(/\d{4}-\d\d-\d\d/);
  });
});
