import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, openAllDetails, signedInPage, walkByKeyboard } from './admin-support.js';
import { launchBrowser, startVexil, type RunningVexil } from './harness.js';

// The administration screens from the keyboard: every control, those inside the collapsed parts
// too, is reached by Tab in page order and has an accessible name.
describe('the administration screens from the keyboard', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    vexil = await startVexil();
    expectOk(
      await vexil.api('POST', '/projects', {
        key: 'shop',
        name: 'Shop',
        description: '',
        environments: [
          { key: 'staging', name: 'Staging' },
          { key: 'production', name: 'Production' },
        ],
      }),
    );
    expectOk(await vexil.api('POST', '/projects/shop/environments/staging/keys', { kind: 'server' }));
    expectOk(
      await vexil.api('POST', '/tokens', {
        name: 'ci',
        scopes: ['flags:read'],
        grants: { environments: [{ project: 'shop', environment: 'staging' }] },
      }),
    );
    expectOk(await vexil.api('POST', '/accounts', { name: 'Ada', email: 'ada@shop.test', role: 'member', projects: ['shop'] }));
    expectOk(
      await vexil.api('POST', '/projects/shop/segments', {
        key: 'beta',
        name: 'Beta',
        rules: [
          {
            criteria: [
              { selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: ['pro'] },
              { selector: 'context', comparer: 'equal', values: ['u-1'] },
            ],
          },
        ],
      }),
    );
    expectOk(await vexil.api('PUT', '/projects/shop/environments/staging', { name: 'Staging', color: '#123456' }));
    // More flags than one page of the list holds, so its Next page button is live.
    for (let i = 0; i < 101; i++)
      expectOk(
        await vexil.api('POST', '/projects/shop/flags', { key: `flag-${String(i).padStart(3, '0')}`, name: `Flag ${i}`, type: 'boolean' }),
      );
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  // Each screen: its path, a text to wait for, what to do first, and names some of its controls must have.
  const screens: Array<[string, string, string, () => Promise<void>, string[]]> = [
    [
      'the projects list',
      '/projects',
      'Create project',
      async () => {
        await page.getByRole('link', { name: 'Flags of Shop' }).waitFor();
      },
      ['Shop', 'Flags of Shop', 'Key', 'Name', 'Description', 'Create project'],
    ],
    [
      'the flags list',
      '/projects/shop/flags',
      'Create flag',
      async () => {
        // A selected flag shows the bulk delete controls too.
        await page.getByLabel('Select flag-000').check();
        await page.getByLabel('Type delete 1 to delete flag-000').waitFor();
      },
      ['Search key or name', 'Select flag-000', 'Flag 0', 'Type delete 1 to delete flag-000', 'Next page', 'Key', 'Name', 'Create flag'],
    ],
    [
      'the account screen',
      '/account',
      'Change password',
      async () => {},
      ['Current password', 'New password (at least 12 characters)', 'Change password'],
    ],
    ['the project', '/projects/shop', 'Save staging', async () => {}, []],
    ['tokens', '/tokens', 'Revoke ci', async () => {}, []],
    ['accounts', '/accounts', 'Set temporary password', async () => {}, []],
    [
      'segments',
      '/projects/shop/segments',
      'Add a criterion to rule 1',
      async () => {
        await page.getByRole('form', { name: 'New segment' }).getByRole('button', { name: 'Add a rule' }).click();
      },
      [],
    ],
    ['insights', '/projects/shop/insights', 'Stale after days', async () => {}, []],
    // Waits for the entries (the filters and pager are there before them).
    ['the audit log', '/audit', 'as it was then', async () => {}, []],
  ];

  for (const [name, path, marker, prepare, names] of screens) {
    it(`reaches every control of ${name} by Tab, in page order, each named`, async () => {
      await page.goto(vexil.baseUrl + path);
      await page.getByText(marker, { exact: false }).first().waitFor({ state: 'attached' });
      await prepare();
      await openAllDetails(page);
      const walk = await walkByKeyboard(page);
      expect(walk.controls.length).toBeGreaterThan(0);
      expect(walk.reached).toEqual(walk.controls);
      expect(walk.unnamed).toEqual([]);
      expect(walk.names).toEqual(expect.arrayContaining(names));
    });
  }

  it('reaches every control of the password choice by Tab', async () => {
    const ada = (await vexil.api('GET', '/accounts')).body.data.find((a: { email: string }) => a.email === 'ada@shop.test');
    expectOk(await vexil.api('PUT', `/accounts/${ada.ulid}/password`, { password: 'temporary for ada' }));
    const other = await (await browser.newContext()).newPage();
    await other.goto(vexil.baseUrl);
    await other.getByLabel('Email').fill('ada@shop.test');
    await other.getByLabel('Password').fill('temporary for ada');
    await other.keyboard.press('Enter');
    await other.getByRole('heading', { name: 'Choose your password' }).waitFor();
    const walk = await walkByKeyboard(other);
    expect(walk.reached).toEqual(walk.controls);
    expect(walk.unnamed).toEqual([]);
    await other.context().close();
  });
});
