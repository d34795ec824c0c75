import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, expectOk, publicStatus, signedInPage, tabTo } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';

// Projects, environments and environment keys, in Chromium against the server process.
describe('the console: projects, environments and keys', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  const settings = (environment: string) => page.getByRole('form', { name: `Settings of ${environment}` });
  const article = (environment: string) => page.locator('article.environment', { has: settings(environment) });

  beforeAll(async () => {
    vexil = await startVexil();
    expectOk(
      await vexil.api('POST', '/projects', {
        key: 'shop',
        name: 'Shop',
        description: 'The web shop',
        environments: [
          { key: 'staging', name: 'Staging' },
          { key: 'production', name: 'Production' },
        ],
      }),
    );
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it("edits the project's name and description", async () => {
    await page.getByRole('link', { name: 'Shop', exact: true }).click();
    const details = page.getByRole('form', { name: 'Project details' });
    await details.getByLabel('Project name').fill('Shop front');
    await details.getByLabel('Project description').fill('Everything customers see');
    expect(await answerOf(page, 'PUT', '/projects/shop', () => details.getByRole('button', { name: 'Save project' }).click())).toBe(200);
    await page.getByRole('heading', { name: 'Shop front shop' }).waitFor();
    const saved = await vexil.api('GET', '/projects/shop');
    expect(saved.body.data).toMatchObject({ name: 'Shop front', description: 'Everything customers see' });
    // A blank name is the API's field message, shown by the field.
    await details.getByLabel('Project name').fill('   ');
    await details.getByRole('button', { name: 'Save project' }).click();
    await details.locator('.field-error').first().waitFor();
    expect(await details.getByLabel('Project name').getAttribute('aria-invalid')).toBe('true');
    expect((await vexil.api('GET', '/projects/shop')).body.data.name).toBe('Shop front');
    await details.getByLabel('Project name').fill('Shop front');
    expect(await answerOf(page, 'PUT', '/projects/shop', () => details.getByRole('button', { name: 'Save project' }).click())).toBe(200);
  });

  it('creates an environment with colour, comment and confirmation settings, by keyboard alone', async () => {
    const form = page.getByRole('form', { name: 'New environment' });
    await tabTo(page, form.getByLabel('Key'));
    await page.keyboard.type('qa');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Quality assurance');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Manual testing');
    // The colour picker, then its hex text.
    await page.keyboard.press('Tab');
    expect(await form.getByLabel('Colour', { exact: true }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('#7c3aed');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await answerOf(page, 'POST', '/projects/shop/environments', () => page.keyboard.press('Enter'))).toBe(200);
    await settings('qa').waitFor();
    const created = await vexil.api('GET', '/projects/shop/environments/qa');
    expect(created.body.data).toMatchObject({
      name: 'Quality assurance',
      description: 'Manual testing',
      color: '#7c3aed',
      comments_required: true,
      confirmation_required: true,
    });
    // The picker shows the colour typed as text.
    expect(await settings('qa').getByLabel('Colour', { exact: true }).inputValue()).toBe('#7c3aed');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '20-project-environments');
  });

  it('edits an environment: name, description, colour by picker and by hex text, and both safeguards', async () => {
    const form = settings('staging');
    await form.getByLabel('Name').fill('Staging (EU)');
    await form.getByLabel('Description').fill('Pre-release');
    await form.getByLabel('Colour', { exact: true }).fill('#0ea5e9');
    expect(await form.getByLabel('Colour (hex)').inputValue()).toBe('#0ea5e9');
    await form.getByLabel('Comment required to publish').check();
    expect(await answerOf(page, 'PUT', '/environments/staging', () => form.getByRole('button', { name: 'Save staging' }).click())).toBe(
      200,
    );
    expect((await vexil.api('GET', '/projects/shop/environments/staging')).body.data).toMatchObject({
      name: 'Staging (EU)',
      description: 'Pre-release',
      color: '#0ea5e9',
      comments_required: true,
      confirmation_required: false,
    });
    const again = settings('staging');
    await again.getByLabel('Colour (hex)').fill('#16A34A');
    await again.getByLabel('Typed confirmation required to publish (only in the console)').check();
    await again.getByLabel('Comment required to publish').uncheck();
    await again.getByLabel('Description').fill('');
    expect(await answerOf(page, 'PUT', '/environments/staging', () => again.getByRole('button', { name: 'Save staging' }).click())).toBe(
      200,
    );
    expect((await vexil.api('GET', '/projects/shop/environments/staging')).body.data).toMatchObject({
      description: null,
      color: '#16A34A',
      comments_required: false,
      confirmation_required: true,
    });
    // Now protected: a token may not change it, and the console asks for the typed key on every save.
    expect(
      (await vexil.api('PUT', '/projects/shop/environments/staging', { name: 'Staging', confirmation_required: false })).body.code,
    ).toBe('confirmation_required');
    const protectedForm = settings('staging');
    await protectedForm.getByLabel('Typed confirmation required to publish (only in the console)').uncheck();
    await protectedForm.getByRole('button', { name: 'Save staging' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save the settings of Staging (EU)' });
    await dialog.getByText('will no longer require typed confirmation').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Confirm and save staging' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type staging to change the settings of Staging (EU)').fill('staging');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await answerOf(page, 'PUT', '/environments/staging', () => confirm.click())).toBe(200);
    await dialog.waitFor({ state: 'hidden' });
    expect((await vexil.api('GET', '/projects/shop/environments/staging')).body.data.confirmation_required).toBe(false);
    // Protected again; not a colour: the API's message beside the colour, after the typed key.
    await vexil.ok('PUT', '/projects/shop/environments/staging', { name: 'Staging (EU)', confirmation_required: true });
    await page.reload();
    await settings('staging').getByLabel('Colour (hex)').fill('green');
    await settings('staging').getByRole('button', { name: 'Save staging' }).click();
    await dialog.getByLabel('Type staging to change the settings of Staging (EU)').fill('staging');
    await dialog.getByRole('button', { name: 'Confirm and save staging' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await settings('staging').locator('.field-error').first().waitFor();
    expect(await settings('staging').locator('.colour .field-error').innerText()).not.toBe('');
    expect((await vexil.api('GET', '/projects/shop/environments/staging')).body.data.color).toBe('#16A34A');
  });

  it('creates a key, shows its secret once, and revokes it: the key then gets 401', async () => {
    const production = article('production');
    await production.getByRole('button', { name: 'Create Production key' }).click();
    const secret = await production.getByTestId('new-key').innerText();
    expect(secret).toMatch(/^srv_[0-9A-Za-z]{40}$/);
    expect(await publicStatus(vexil, secret)).toBe(200);
    const keys = await vexil.api('GET', '/projects/shop/environments/production/keys');
    const created = keys.body.data.find((k: { masked_key: string }) => secret.endsWith(k.masked_key.slice(-4)));
    await production.getByText(created.masked_key).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await production.getByRole('button', { name: `Revoke ${created.name}` }).click();
    await page
      .getByRole('dialog', { name: `Revoke ${created.name}?` })
      .getByRole('button', { name: 'Revoke', exact: true })
      .click();
    await production.getByText('revoked just now').waitFor();
    expect(await publicStatus(vexil, secret)).toBe(401);
    await page.reload();
    expect(await page.getByText(secret).count()).toBe(0);
  });

  it('deletes an environment only after its key is typed, by keyboard; a protected one with the typed key as its confirmation', async () => {
    // qa requires typed confirmation: a token may not delete it.
    const refused = await vexil.api('DELETE', '/projects/shop/environments/qa');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('confirmation_required');
    const qa = article('qa');
    const summary = qa.getByText('Delete qa', { exact: true });
    await tabTo(page, summary);
    await page.keyboard.press('Enter');
    await qa.getByText('Quality assurance requires typed confirmation: only here, by typing its key, can it be deleted.').waitFor();
    const remove = qa.getByRole('button', { name: 'Delete environment qa' });
    expect(await remove.isDisabled()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('q');
    expect(await remove.isDisabled()).toBe(true);
    await page.keyboard.type('a');
    await page.keyboard.press('Tab');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await answerOf(page, 'DELETE', '/environments/qa?confirmation=qa', () => page.keyboard.press('Enter'))).toBe(200);
    await settings('qa').waitFor({ state: 'detached' });
    expect((await vexil.api('GET', '/projects/shop/environments/qa')).status).toBe(404);

    // One that does not require confirmation is deleted without it.
    expectOk(await vexil.api('POST', '/projects/shop/environments', { key: 'scratch', name: 'Scratch' }));
    await page.reload();
    const scratch = article('scratch');
    await scratch.getByText('Delete scratch', { exact: true }).click();
    expect(await scratch.getByText('requires typed confirmation').count()).toBe(0);
    await scratch.getByLabel('Type scratch to delete the environment scratch').fill('scratch');
    const deleted = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().includes('/environments/scratch'));
    await scratch.getByRole('button', { name: 'Delete environment scratch' }).click();
    expect(new URL((await deleted).url()).search).toBe('');
    await settings('scratch').waitFor({ state: 'detached' });
    expect((await vexil.api('GET', '/projects/shop/environments/scratch')).status).toBe(404);
  });

  it('deletes a project only after its key is typed, with the typed key as its confirmation, and returns to the projects', async () => {
    expectOk(await vexil.api('POST', '/projects', { key: 'old-shop', name: 'Old shop', description: '' }));
    const key = (await vexil.api('POST', '/projects/old-shop/environments/production/keys', { kind: 'server' })).body.data.key as string;
    // It holds an environment that requires typed confirmation: a token may not delete the project.
    expectOk(await vexil.api('POST', '/projects/old-shop/environments', { key: 'vault', name: 'Vault', confirmation_required: true }));
    const refused = await vexil.api('DELETE', '/projects/old-shop');
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('confirmation_required');
    await page.goto(`${vexil.baseUrl}/projects/old-shop`);
    const remove = page.getByRole('button', { name: 'Delete project' });
    await remove.waitFor();
    await page
      .getByText("Vault requires typed confirmation: only here, by typing the project's key, can the project be deleted.")
      .waitFor();
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel('Type old-shop to delete the project and everything in it').fill('old-sho');
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel('Type old-shop to delete the project and everything in it').fill('old-shop');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await answerOf(page, 'DELETE', '/projects/old-shop?confirmation=old-shop', () => remove.click())).toBe(200);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects');
    expect((await vexil.api('GET', '/projects/old-shop')).status).toBe(404);
    expect(await publicStatus(vexil, key)).toBe(401);
    expect(await page.getByRole('link', { name: 'Old shop', exact: true }).count()).toBe(0);
  });
});
