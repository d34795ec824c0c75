import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, expectOk, signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, submitSignIn, type RunningVexil } from './harness.js';

// Who may do what: management tokens with grants, accounts with roles and projects, temporary passwords.
describe('the console: tokens, accounts and temporary passwords', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let adaPage: Page;
  let adaPassword = '';
  const ada = 'ada@shop.test';
  const accountCard = (email: string) =>
    page.locator('article', { has: page.getByRole('heading', { name: new RegExp(email.replace('.', '\\.')) }) });

  beforeAll(async () => {
    vexil = await startVexil();
    for (const key of ['shop', 'billing']) {
      expectOk(
        await vexil.api('POST', '/projects', {
          key,
          name: key === 'shop' ? 'Shop' : 'Billing',
          description: '',
          environments: [
            { key: 'staging', name: 'Staging' },
            { key: 'production', name: 'Production' },
          ],
        }),
      );
    }
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('creates a token with an environment grant and a project grant, and lists its scopes, tier, grants and expiry', async () => {
    await page.getByRole('link', { name: 'Tokens' }).click();
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Name', { exact: true }).fill('ci-staging');
    await form.getByLabel('projects:read').check();
    await form.getByLabel('targets:read').check();
    await form.getByLabel('Tier').selectOption('elevated');
    await form.getByLabel('Grant project').selectOption('shop');
    await form.getByLabel('Grant environment').locator('option', { hasText: 'staging' }).waitFor({ state: 'attached' });
    await form.getByLabel('Grant environment').selectOption('staging');
    await form.getByRole('button', { name: 'Add grant' }).click();
    await form.getByLabel('Grant project').selectOption('billing');
    await form.getByRole('button', { name: 'Add grant' }).click();
    await form.getByRole('list', { name: 'Chosen grants' }).getByText('shop / staging').waitFor();
    await form.getByLabel('Expires (optional)').fill('2030-06-30T12:00');
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByRole('status').locator('code').innerText();
    expect(secret).toMatch(/^mgt_/);

    const listed = (await vexil.api('GET', '/tokens')).body.data.find((t: { name: string }) => t.name === 'ci-staging');
    expect([...listed.scopes].sort()).toEqual(['flags:read', 'projects:read', 'targets:read']);
    expect(listed).toMatchObject({
      tier: 'elevated',
      grants: { projects: ['billing'], environments: [{ project: 'shop', environment: 'staging' }] },
    });
    expect(listed.expires_at.slice(0, 4)).toBe('2030');
    // The grants hold: of shop only staging, billing wholly.
    const call = (route: string) =>
      fetch(`${vexil.baseUrl}/management/v1${route}`, { headers: { authorization: `Bearer ${secret}` } }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    const environments = await call('/projects/shop/environments');
    expect(environments.body.data.map((e: { key: string }) => e.key)).toEqual(['staging']);
    expect((await call('/projects/shop/environments/production')).status).toBe(404);
    expect((await call('/projects/billing/environments/production')).status).toBe(200);

    const row = page.locator('tr', { hasText: 'ci-staging' });
    const text = await row.innerText();
    for (const part of ['projects:read', 'targets:read', 'elevated', 'billing (whole project)', 'shop / staging'])
      expect(text).toContain(part);
    expect(text).toMatch(/\bin \d+ (years?|months?)\b/);
    // The expiry is relative, its exact time on hover.
    expect(await row.locator('time').first().getAttribute('datetime')).toBe(listed.expires_at);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '12-tokens');
  });

  it("shows the API's message when a token cannot be created, and revokes a token", async () => {
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Name', { exact: true }).fill('no scopes');
    for (const scope of ['projects:read', 'flags:read', 'targets:read']) await form.getByLabel(scope).uncheck();
    await form.getByRole('button', { name: 'Create token' }).click();
    await form.getByRole('alert').first().waitFor();
    expect(await form.getByRole('alert').first().innerText()).toMatch(/scopes/);
    await page.getByRole('button', { name: 'Revoke ci-staging' }).click();
    await page.getByRole('dialog', { name: 'Revoke ci-staging?' }).getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.locator('tr', { hasText: 'ci-staging' }).getByText('revoked just now').waitFor();
    expect((await vexil.api('GET', '/tokens')).body.data.find((t: { name: string }) => t.name === 'ci-staging').revoked_at).not.toBeNull();
  });

  it('creates a member with a project and gives it a temporary password', async () => {
    await page.getByRole('link', { name: 'Accounts' }).click();
    const form = page.getByRole('form', { name: 'New account' });
    await form.getByLabel('Name').fill('Ada');
    await form.getByLabel('Email').fill(ada);
    await form.getByLabel(/Shop\s+shop/).check();
    await form.getByRole('button', { name: 'Create account' }).click();
    const card = accountCard(ada);
    await card.waitFor();
    const facts = await card.locator('dl').innerText();
    expect(facts).toMatch(/Role\s+member/);
    expect(facts).toMatch(/Projects\s+shop/);
    expect(facts).toContain('none yet');

    await card.getByText(`Set a temporary password for ${ada}`).click();
    const passwordForm = card.getByRole('form', { name: `Password of ${ada}` });
    await passwordForm.getByRole('button', { name: 'Generate one' }).click();
    adaPassword = await passwordForm.getByLabel(`Temporary password for ${ada}`).inputValue();
    expect(adaPassword).toMatch(/^[0-9A-Za-z]{20}$/);
    await passwordForm.getByRole('button', { name: 'Set temporary password' }).click();
    await passwordForm.getByRole('status').getByText(`Set: ${ada} chooses their own at next sign-in`).waitFor();
    // In a week ("next week"), the exact time in the time element.
    await card.getByText(/^temporary, expires (next week|in \d+ days)$/).waitFor();
    expect(await card.locator('dd time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '13-accounts');
  });

  it('makes the person choose their own password at first sign-in; the temporary one then stops working', async () => {
    adaPage = await (await browser.newContext()).newPage();
    await submitSignIn(adaPage, vexil, ada, adaPassword);
    await adaPage.getByRole('heading', { name: 'Choose your password' }).waitFor();
    // Nothing but the password change works with this session.
    const refused = await adaPage.evaluate(async () => {
      const res = await fetch('/management/v1/projects');
      return [res.status, ((await res.json()) as { code: string }).code];
    });
    expect(refused).toEqual([403, 'password_change_required']);
    expect(await seriousViolations(adaPage)).toEqual([]);
    await screenshot(adaPage, '15-choose-password');
    await adaPage.getByLabel('New password (at least 12 characters)').fill('ada chose this herself');
    await adaPage.getByLabel('New password again').fill('ada chose this herself!');
    await adaPage.getByRole('button', { name: 'Save my password' }).click();
    await adaPage.getByRole('alert').getByText('The two new passwords differ.').waitFor();
    await adaPage.getByLabel('New password again').fill('ada chose this herself');
    await adaPage.getByRole('button', { name: 'Save my password' }).click();
    await adaPage.getByRole('heading', { name: 'Projects' }).waitFor();
    // A member: only the project it was given.
    await adaPage.getByRole('link', { name: 'Shop', exact: true }).waitFor();
    expect(await adaPage.getByRole('link', { name: 'Billing', exact: true }).count()).toBe(0);
    const again = await fetch(`${vexil.baseUrl}/management/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ada, password: adaPassword }),
    });
    expect(again.status).toBe(401);
    await page.reload();
    await accountCard(ada).getByText('their own', { exact: true }).waitFor();
  });

  it('asks for the temporary password again when the console reopens such a session', async () => {
    expectOk(await vexil.api('POST', '/accounts', { name: 'Bob', email: 'bob@shop.test', role: 'admin' }));
    const bob = (await vexil.api('GET', '/accounts')).body.data.find((a: { email: string }) => a.email === 'bob@shop.test');
    // Set by the owner's token for another account: temporary too.
    expectOk(await vexil.api('PUT', `/accounts/${bob.ulid}/password`, { password: 'temporary for bob' }));
    const bobPage = await (await browser.newContext()).newPage();
    await submitSignIn(bobPage, vexil, 'bob@shop.test', 'temporary for bob');
    await bobPage.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await bobPage.reload();
    await bobPage.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await bobPage.getByLabel('Temporary password').fill('temporary for bob');
    await bobPage.getByLabel('New password (at least 12 characters)').fill('bob chose this one');
    await bobPage.getByLabel('New password again').fill('bob chose this one');
    await bobPage.getByRole('button', { name: 'Save my password' }).click();
    await bobPage.getByRole('heading', { name: 'Projects' }).waitFor();
    await bobPage.getByRole('link', { name: 'Accounts' }).waitFor();
    await bobPage.context().close();
  });

  it("edits an account's role and projects; the person's rights follow at once", async () => {
    await page.reload();
    const card = accountCard(ada);
    await card.getByText(`Edit ${ada}`).click();
    const form = card.getByRole('form', { name: `Edit ${ada}` });
    await form.getByLabel(/Billing\s+billing/).check();
    expect(await answerOf(page, 'PUT', '/accounts/', () => form.getByRole('button', { name: `Save ${ada}` }).click())).toBe(200);
    expect((await vexil.api('GET', '/accounts')).body.data.find((a: { email: string }) => a.email === ada).projects).toEqual([
      'shop',
      'billing',
    ]);
    await adaPage.reload();
    await adaPage.getByRole('link', { name: 'Billing', exact: true }).waitFor();
    expect(await adaPage.getByRole('link', { name: 'Accounts' }).count()).toBe(0);

    await form.getByLabel('Role').selectOption('admin');
    expect(await form.getByLabel(/Billing\s+billing/).count()).toBe(0);
    expect(await answerOf(page, 'PUT', '/accounts/', () => form.getByRole('button', { name: `Save ${ada}` }).click())).toBe(200);
    await card.locator('dl').getByText('admin').waitFor();
    await adaPage.reload();
    await adaPage.getByRole('link', { name: 'Accounts' }).waitFor();
    // The API's refusal is shown: an account cannot change its own role.
    const own = accountCard(vexil.ownerEmail);
    await own.getByText(`Edit ${vexil.ownerEmail}`).click();
    await own.getByLabel('Role').selectOption('member');
    await own.getByRole('button', { name: `Save ${vexil.ownerEmail}` }).click();
    await own.getByRole('alert').getByText('An account cannot change its own role.').waitFor();
  });

  it('deletes an account after its email is typed; its open session ends at once', async () => {
    const card = accountCard(ada);
    await card.getByText(`Delete ${ada}`, { exact: true }).click();
    const remove = card.getByRole('button', { name: `Delete account ${ada}` });
    expect(await remove.isDisabled()).toBe(true);
    await card.getByLabel(`Type ${ada} to delete this account`).fill(ada);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await answerOf(page, 'DELETE', '/accounts/', () => remove.click())).toBe(200);
    await card.waitFor({ state: 'detached' });
    expect((await vexil.api('GET', '/accounts')).body.data.some((a: { email: string }) => a.email === ada)).toBe(false);
    // Ada's console, still open, is signed out by the next request.
    await adaPage.reload();
    await adaPage.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    expect(await accountCard(vexil.ownerEmail).getByText(`Delete ${vexil.ownerEmail}`).count()).toBe(0);
  });
});
