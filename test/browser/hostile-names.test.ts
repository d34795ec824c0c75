import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousViolations, signIn, startVexil, type RunningVexil } from './harness.js';

const xss = '<img src=x onerror=alert(1)>';

// Names are data: a project, environment, flag, value, rule, comment, segment and observed
// attribute value all named like markup render as text on every screen that shows them.
describe('hostile names in the console', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const flagPage = '/projects/xss/flags/hostile';

  /** Nothing ran and no element was made of the name; the name is there as text, `times` at least. */
  async function expectInert(times = 1): Promise<void> {
    // Options of closed selects are text too, but not visible: count what a person sees.
    const text = page.getByText(xss).filter({ visible: true });
    await text.first().waitFor();
    // Parts of a screen arrive with their own requests: wait for the last of them.
    await expect.poll(() => text.count()).toBeGreaterThanOrEqual(times);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  }

  beforeAll(async () => {
    vexil = await startVexil();
    await vexil.ok('POST', '/projects', { key: 'xss', name: xss, description: xss, environments: [{ key: 'evil', name: xss }] });
    const key = (await vexil.ok('POST', '/projects/xss/environments/evil/keys', { kind: 'server', name: xss })).key as string;
    await vexil.ok('POST', '/projects/xss/flags', { key: 'hostile', name: xss, description: xss, type: 'string' });
    const plain = await vexil.ok('POST', `${flagPage}/values`, { display: 'plain' });
    const value = await vexil.ok('POST', `${flagPage}/values`, { display: xss });
    await vexil.ok('POST', '/projects/xss/segments', { key: 'seg', name: xss, description: xss, included: [xss] });
    const base = `${flagPage}/environments/evil/targets`;
    const published = await vexil.ok('POST', base);
    await vexil.ok('PUT', `${base}/${published.ulid}`, { value_ulid: value.ulid });
    await vexil.ok('POST', `${base}/${published.ulid}/rules`, {
      value_ulid: plain.ulid,
      description: xss,
      criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: [xss] }],
    });
    await vexil.ok('PUT', `${base}/${published.ulid}/publish`, { comment: xss });
    // A draft (copying the rule) keeps the draft editor open; a context makes the value observed.
    await vexil.ok('POST', base);
    await fetch(`${vexil.baseUrl}/v1/flags/hostile`, {
      headers: {
        'x-vexil-api-key': key,
        'x-vexil-context': JSON.stringify({ type: 'user', identifier: 'u-1', attributes: [{ key: 'plan', values: [{ value: xss }] }] }),
      },
    });
    for (let i = 0; i < 100; i++) {
      if ((await vexil.api('GET', '/projects/xss/environments/evil/context-attributes')).body.data.attributes.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(page, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('on the projects list and the project screen (project and environment names)', async () => {
    await expectInert();
    await page.goto(`${vexil.baseUrl}/projects/xss`);
    await expectInert(2);
  });

  it('on the flags list (flag name, served value)', async () => {
    await page.goto(`${vexil.baseUrl}/projects/xss/flags`);
    await expectInert(2);
  });

  it('on the flag page: name, value, environment, rule, comment, draft editor and publish dialog', async () => {
    await page.goto(vexil.baseUrl + flagPage);
    await page.getByRole('heading', { name: 'Draft in', exact: false }).waitFor();
    await page.getByText('History in').click();
    // Heading, value list, environment heading, served value, rule, history comment at least.
    await expectInert(6);
    const rule = page.locator('ol.rules > li').first();
    expect(await rule.locator('strong').innerText()).toBe(xss);
    expect(await page.locator('ul.values code').allInnerTexts()).toContain(xss);
    await rule.getByRole('button', { name: `Edit ${xss}` }).click();
    expect(await page.getByLabel('Rule description').first().inputValue()).toBe(xss);
    await expectInert();
    await page.getByRole('button', { name: 'Cancel editing' }).click();
    await page.getByRole('button', { name: /^Review and publish in/ }).click();
    const dialog = page.getByRole('dialog', { name: `Publish in ${xss}` });
    await dialog.waitFor();
    await expectInert();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('in try it: the served value, and an observed attribute value picked', async () => {
    const tryIt = page.getByRole('form', { name: `Try it in ${xss}` });
    await tryIt.getByRole('button', { name: `Evaluate in ${xss}` }).click();
    await tryIt.getByText(`${JSON.stringify(xss)} (target)`).waitFor();
    await expectInert();
    await tryIt.getByLabel('Add an observed attribute').selectOption({ label: `plan = ${xss}` });
    expect(await tryIt.getByLabel('Attribute 1 value').inputValue()).toBe(xss);
    await tryIt.getByRole('button', { name: `Evaluate in ${xss}` }).click();
    await tryIt.getByText('"plain" (rule)').waitFor();
    await expectInert();
  });

  it('on the segments, insights and audit screens', async () => {
    await page.goto(`${vexil.baseUrl}/projects/xss/segments`);
    await expectInert();
    await page.goto(`${vexil.baseUrl}/projects/xss/insights`);
    await expectInert();
    await page.goto(`${vexil.baseUrl}/audit`);
    // The publish comment.
    await expectInert();
  });
});
