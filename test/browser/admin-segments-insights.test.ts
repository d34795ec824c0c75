import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, expectOk, signedInPage } from './admin-support.js';
import {
  launchBrowser,
  screenshot,
  seriousViolations,
  startVexil,
  writeSqliteFile,
  type RunningVexil,
  type SqliteWork,
} from './harness.js';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

// Segments with several rules and criteria, and the insights of real public API traffic.
describe('the console: segments and insights', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vexil-insights-'));
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let serverKey = '';

  const onDatabase = (work: SqliteWork) => writeSqliteFile(path.join(dir, 'vexil.db'), work);

  beforeAll(async () => {
    vexil = await startVexil({ DATABASE_URL: `sqlite:${dir}/vexil.db` });
    expectOk(
      await vexil.api('POST', '/projects', {
        key: 'shop',
        name: 'Shop',
        description: '',
        environments: [{ key: 'production', name: 'Production' }],
      }),
    );
    serverKey = (await vexil.api('POST', '/projects/shop/environments/production/keys', { kind: 'server' })).body.data.key;
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a segment with two rules of several criteria and any comparer', async () => {
    await page.goto(`${vexil.baseUrl}/projects/shop/segments`);
    const form = page.getByRole('form', { name: 'New segment' });
    await form.getByLabel('Key').fill('beta');
    await form.getByLabel('Name').fill('Beta testers');
    await form.getByLabel('Description').fill('Grown-up pro customers');
    await form.getByRole('button', { name: 'Add a rule' }).click();
    const first = form.getByRole('group', { name: 'Criterion 1 of rule 1' });
    await first.getByLabel('Attribute name').fill('plan');
    await first.getByLabel('Comparer').selectOption('in');
    await first.getByLabel('Values (comma-separated)').fill('pro, enterprise');
    await form.getByRole('button', { name: 'Add a criterion to rule 1' }).click();
    const second = form.getByRole('group', { name: 'Criterion 2 of rule 1' });
    await second.getByLabel('Attribute name').fill('age');
    await second.getByLabel('Comparer').selectOption('gte');
    await second.getByLabel('Values (comma-separated)').fill('18');
    await form.getByRole('button', { name: 'Add a criterion to rule 1' }).click();
    const third = form.getByRole('group', { name: 'Criterion 3 of rule 1' });
    await third.getByLabel('Attribute name').fill('email');
    await third.getByLabel('Comparer').selectOption('endswith');
    await third.getByLabel('Values (comma-separated)').fill('@shop.test');
    await form.getByRole('button', { name: 'Add a rule' }).click();
    const context = form.getByRole('group', { name: 'Criterion 1 of rule 2' });
    await context.getByLabel('Compare', { exact: true }).selectOption('context');
    // The identifier takes only equal, notequal, in and notin.
    expect(await context.getByLabel('Comparer').locator('option').allTextContents()).toEqual([
      'equals (equal)',
      'does not equal (notequal)',
      'is one of (in)',
      'is not one of (notin)',
    ]);
    await context.getByLabel('Context type (optional)').fill('organization');
    await context.getByLabel('Comparer').selectOption('notin');
    await context.getByLabel('Values (comma-separated)').fill('org-9');
    await form.getByRole('button', { name: 'Add a criterion to rule 2' }).click();
    const absent = form.getByRole('group', { name: 'Criterion 2 of rule 2' });
    await absent.getByLabel('Attribute name').fill('country');
    await absent.getByLabel('Comparer').selectOption('isnull');
    expect(await absent.getByLabel('Values (comma-separated)').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await answerOf(page, 'POST', '/segments', () => form.getByRole('button', { name: 'Create segment' }).click())).toBe(200);

    const saved = (await vexil.api('GET', '/projects/shop/segments/beta')).body.data;
    expect(saved).toMatchObject({ name: 'Beta testers', description: 'Grown-up pro customers', included: [], excluded: [] });
    expect(saved.rules).toEqual([
      {
        criteria: [
          { selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: ['pro', 'enterprise'] },
          { selector: 'attribute', sub_selector: 'age', comparer: 'gte', values: ['18'] },
          { selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@shop.test'] },
        ],
      },
      {
        criteria: [
          { selector: 'context', sub_selector: 'organization', comparer: 'notin', values: ['org-9'] },
          { selector: 'attribute', sub_selector: 'country', comparer: 'isnull', values: [] },
        ],
      },
    ]);
    const rules = page.getByRole('list', { name: 'Rules of beta' });
    await rules
      .getByText('attribute plan is one of pro, enterprise and attribute age is at least 18 and attribute email ends with @shop.test')
      .waitFor();
    await rules.getByText('context identifier (type organization) is not one of org-9 and attribute country is absent').waitFor();
  });

  it("edits a segment's name, description, members and rules, showing the API's message by its criterion", async () => {
    const card = page.locator('article', { has: page.getByRole('heading', { name: 'Beta testers beta' }) });
    await card.getByText('Edit beta').click();
    const form = card.getByRole('form', { name: 'Edit segment beta' });
    await form.getByLabel('Name', { exact: true }).fill('Beta group');
    await form.getByLabel('Description').fill('Early access');
    await form.getByLabel('Always members (identifiers, comma-separated)').fill('u-1, u-2');
    await form.getByLabel('Never members (identifiers, comma-separated)').fill('u-3');
    // A number comparer with a word: the API refuses it, next to that criterion.
    const age = form.getByRole('group', { name: 'Criterion 2 of rule 1' });
    await age.getByLabel('Values (comma-separated)').fill('adult');
    expect(await answerOf(page, 'PUT', '/segments/beta', () => form.getByRole('button', { name: 'Save beta' }).click())).toBe(422);
    const message = form
      .getByRole('listitem')
      .filter({ has: page.getByRole('group', { name: 'Criterion 2 of rule 1' }) })
      .locator('.field-error');
    await message.waitFor();
    expect(await message.innerText()).not.toBe('');
    await age.getByLabel('Values (comma-separated)').fill('21');
    // Drop the email criterion and the whole second rule.
    await form.getByRole('button', { name: 'Remove criterion 3 of rule 1' }).click();
    await form.getByRole('button', { name: 'Remove rule 2' }).click();
    expect(await answerOf(page, 'PUT', '/segments/beta', () => form.getByRole('button', { name: 'Save beta' }).click())).toBe(200);
    const saved = (await vexil.api('GET', '/projects/shop/segments/beta')).body.data;
    expect(saved).toMatchObject({ name: 'Beta group', description: 'Early access', included: ['u-1', 'u-2'], excluded: ['u-3'] });
    expect(saved.rules).toEqual([
      {
        criteria: [
          { selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: ['pro', 'enterprise'] },
          { selector: 'attribute', sub_selector: 'age', comparer: 'gte', values: ['21'] },
        ],
      },
    ]);
    await page.getByRole('heading', { name: 'Beta group beta' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '11-segments');
  });

  it("deletes a segment after its key is typed; one a rule still uses is refused with the API's reason", async () => {
    expectOk(await vexil.api('POST', '/projects/shop/flags', { key: 'beta-banner', name: 'Beta banner', type: 'boolean' }));
    const values = (await vexil.api('GET', '/projects/shop/flags/beta-banner/values')).body.data as Array<{
      ulid: string;
      display: string;
    }>;
    const draft = (await vexil.api('POST', '/projects/shop/flags/beta-banner/environments/production/targets')).body.data;
    expectOk(
      await vexil.api('POST', `/projects/shop/flags/beta-banner/environments/production/targets/${draft.ulid}/rules`, {
        value_ulid: values.find((v) => v.display === 'true')?.ulid,
        description: 'Beta testers',
        criteria: [{ selector: 'segment', comparer: 'in', values: ['beta'] }],
      }),
    );
    expectOk(await vexil.api('POST', '/projects/shop/segments', { key: 'unused', name: 'Unused' }));
    await page.reload();
    const card = (name: string) => page.locator('article', { has: page.getByRole('heading', { name }) });
    await card('Beta group beta').getByText('Delete beta', { exact: true }).click();
    const removeBeta = card('Beta group beta').getByRole('button', { name: 'Delete segment beta' });
    expect(await removeBeta.isDisabled()).toBe(true);
    await card('Beta group beta').getByLabel('Type beta to delete the segment beta').fill('beta');
    await removeBeta.click();
    await card('Beta group beta').getByRole('alert').waitFor();
    expect((await vexil.api('GET', '/projects/shop/segments/beta')).status).toBe(200);
    await card('Unused unused').getByText('Delete unused', { exact: true }).click();
    await card('Unused unused').getByLabel('Type unused to delete the segment unused').fill('unused');
    expect(
      await answerOf(page, 'DELETE', '/segments/unused', () =>
        card('Unused unused').getByRole('button', { name: 'Delete segment unused' }).click(),
      ),
    ).toBe(200);
    await card('Unused unused').waitFor({ state: 'detached' });
    expect((await vexil.api('GET', '/projects/shop/segments/unused')).status).toBe(404);
  });

  it('shows stale flags and default-value reports from real public API traffic', async () => {
    for (const [key, permanent] of [
      ['old-unused', false],
      ['old-used', false],
      ['used-long-ago', false],
      ['old-permanent', true],
      ['fresh', false],
    ] as const) {
      expectOk(await vexil.api('POST', '/projects/shop/flags', { key, name: `Flag ${key}`, type: 'boolean' }));
      if (permanent) expectOk(await vexil.api('PUT', `/projects/shop/flags/${key}`, { name: `Flag ${key}`, permanent: true }));
    }
    // Flags created two months ago (the server's clock cannot be moved: the rows are dated back).
    await onDatabase((db) =>
      db('flags')
        .whereIn('key', ['old-unused', 'old-used', 'used-long-ago', 'old-permanent'])
        .update({ created_at: daysAgo(60), updated_at: daysAgo(60) }),
    );
    // The application uses two flags and asks for every flag, declaring a default only for `fresh`
    // and for `ghost`, which does not exist.
    for (const key of ['old-used', 'used-long-ago']) {
      const used = await fetch(`${vexil.baseUrl}/v1/flags/${key}/usage`, { method: 'POST', headers: { 'x-vexil-api-key': serverKey } });
      expect(used.status).toBe(200);
    }
    const declared = JSON.stringify([
      { key: 'fresh', type: 'boolean', value: false },
      { key: 'ghost', type: 'string', value: 'boo' },
    ]);
    const listed = await fetch(`${vexil.baseUrl}/v1/flags`, {
      headers: { 'x-vexil-api-key': serverKey, 'x-vexil-default-value': declared },
    });
    expect(listed.status).toBe(200);
    // Telemetry is written in batches about a second later.
    let reports: { missing_defaults: Array<{ flag_key: string }>; unknown_flags: Array<{ flag_key: string }> } | undefined;
    for (let i = 0; i < 50 && !(reports?.unknown_flags.length && reports.missing_defaults.length); i++) {
      await new Promise((r) => setTimeout(r, 200));
      reports = (await vexil.api('GET', '/projects/shop/environments/production/default-value-reports')).body.data;
    }
    // Until the use is written, the two used flags still count as stale.
    let staleNow: string[] = [];
    for (let i = 0; i < 50 && staleNow.join() !== 'old-unused'; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 200));
      staleNow = (await vexil.api('GET', '/projects/shop/environments/production/stale-flags?days=1')).body.data.map(
        (f: { key: string }) => f.key,
      );
    }
    expect(staleNow).toEqual(['old-unused']);
    // One of the used flags was last used 45 days ago.
    await onDatabase((db) =>
      db('flag_telemetry')
        .whereIn('flag_ulid', db('flags').where('key', 'used-long-ago').select('ulid'))
        .update({ last_used_at: daysAgo(45) }),
    );

    await page.goto(`${vexil.baseUrl}/projects/shop/insights`);
    const stale = page.getByRole('table', { name: 'Stale flags in production' });
    await stale.waitFor();
    // Each report arrives with its own request: wait for its rows, not only its table.
    await expect.poll(() => stale.locator('tbody tr td:first-child').allInnerTexts()).toEqual(['old-unused', 'used-long-ago']);
    expect(await stale.locator('tr', { hasText: 'old-unused' }).innerText()).toContain('never');
    // Dates are relative, the exact time in the element's datetime (and on hover).
    const usedLongAgo = stale.locator('tr', { hasText: 'used-long-ago' });
    expect(await usedLongAgo.innerText()).toMatch(/\b(last month|\d+ (weeks|months) ago)\b/);
    expect((await usedLongAgo.locator('time').first().getAttribute('datetime'))?.slice(0, 10)).toBe(daysAgo(45).slice(0, 10));
    const missing = page.getByRole('table', { name: 'Flags without a default in production' }).locator('tbody tr td:first-child');
    await expect
      .poll(async () => [...(await missing.allInnerTexts())].sort())
      .toEqual(['beta-banner', 'old-permanent', 'old-unused', 'old-used', 'used-long-ago']);
    const unknown = page.getByRole('table', { name: 'Unknown flags in production' });
    await expect.poll(() => unknown.locator('tbody tr').allInnerTexts()).toHaveLength(1);
    expect(await unknown.locator('tbody tr').innerText()).toMatch(/ghost\s+string\s+1/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '16-insights');

    // Ninety days: nothing is stale yet; the page asks the API again.
    await page.getByLabel('Stale after days').fill('90');
    await page.getByText('None: every flag was used within 90 days, is newer, or is permanent.').waitFor();
    // A listed flag opens its page.
    await page.getByRole('table', { name: 'Flags without a default in production' }).getByRole('link', { name: 'old-unused' }).click();
    expect(new URL(page.url()).pathname).toBe('/projects/shop/flags/old-unused');
  });
});
