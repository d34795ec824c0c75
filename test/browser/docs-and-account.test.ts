import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, submitSignIn, startVexil, type RunningVexil } from './harness.js';

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** "METHOD /path" of every operation a document describes. */
async function operationsOf(vexil: RunningVexil, url: string): Promise<string[]> {
  const document = (await (await fetch(vexil.baseUrl + url, { headers: { accept: 'application/json' } })).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => methods.includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}

/** "METHOD /path" of every operation the page shows now. */
function shownOperations(page: Page): Promise<string[]> {
  return page
    .locator('.opblock-summary')
    .evaluateAll((rows) =>
      rows
        .map(
          (row) =>
            `${row.querySelector('.opblock-summary-method')?.textContent?.trim()} ${row.querySelector('[data-path]')?.getAttribute('data-path')}`,
        )
        .sort(),
    );
}

// The API reference in the browser, and a person changing their own password.
describe('the API reference and the account screen', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  // A host name that is not localhost: Swagger UI behaves differently for local addresses.
  const host = 'vexil.test';
  let origin = '';

  beforeAll(async () => {
    vexil = await startVexil();
    origin = vexil.baseUrl.replace('127.0.0.1', host);
    browser = await launchBrowser([`--host-resolver-rules=MAP ${host} 127.0.0.1`]);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('opens /docs from the console, renders both documents, and breaks no Content-Security-Policy', async () => {
    const page = await (await browser.newContext()).newPage();
    // Recorded from the first byte of every document, outside the page's CSP.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const problems: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && problems.push(`console: ${message.text()}`)));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on(
      'request',
      (request) => void (new URL(request.url()).origin !== origin && problems.push(`request elsewhere: ${request.url()}`)),
    );

    await submitSignIn(page, { ...vexil, baseUrl: origin });
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // Only what the reference page does counts (the console's first GET /session is a 401 before signing in).
    problems.length = 0;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(`${origin}/docs`);

    // The management document first, every operation listed.
    const management = await operationsOf(vexil, '/management/v1/api-docs');
    await page.locator('.info .title', { hasText: 'Vexil management API' }).waitFor();
    await expect.poll(() => shownOperations(page)).toEqual(management);
    await screenshot(page, '20-api-reference-management');

    // Then the public one, chosen in the definition picker.
    const picker = page.getByLabel('Select a definition');
    expect(await picker.locator('option').allInnerTexts()).toEqual(['Management API', 'Evaluation API']);
    await picker.selectOption({ label: 'Evaluation API' });
    await page.locator('.info .title', { hasText: 'Vexil public evaluation API' }).waitFor();
    const evaluation = await operationsOf(vexil, '/v1/api-docs');
    await expect.poll(() => shownOperations(page)).toEqual(evaluation);
    expect(evaluation).toContain('GET /v1/flags');
    await screenshot(page, '21-api-reference-evaluation');

    // An operation opens with its description.
    await page
      .locator('.opblock-summary', { has: page.locator('[data-path="/v1/flags"]') })
      .first()
      .click();
    await page.locator('.opblock.is-open .opblock-description-wrapper').first().waitFor();

    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('marks in the main navigation the screen one is on, and only that one', async () => {
    const page = await signedInPage(browser, vexil);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // The first screen after signing in is the projects list.
    const current = () => nav.locator('[aria-current="page"]').allInnerTexts();
    expect(await current()).toEqual(['Projects']);
    for (const [link, path] of [
      ['Audit log', '/audit'],
      ['Tokens', '/tokens'],
      ['Accounts', '/accounts'],
      [vexil.ownerEmail, '/account'],
      ['Projects', '/projects'],
    ]) {
      await nav.getByRole('link', { name: link, exact: true }).click();
      await page.waitForURL(vexil.baseUrl + path);
      expect(await current(), path).toEqual([link]);
    }
    await page.context().close();
  });

  it('changes its own password on the account screen: the old one is then refused, the new one signs in', async () => {
    const oldPassword = vexil.ownerPassword;
    const newPassword = 'a new and longer console password';
    const page = await signedInPage(browser, vexil);
    // A second signed-in browser: the change ends every session of the account.
    const elsewhere = await signedInPage(browser, vexil);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: vexil.ownerEmail }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    const current = page.getByLabel('Current password');
    const next = page.getByLabel('New password (at least 12 characters)');

    // A wrong current password: the API's message is shown, nothing changes.
    await current.fill('not the password at all');
    await next.fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    // In words, the code in the detail.
    expect(await refused.locator('.error-words').innerText()).not.toMatch(/invalid_credentials/);
    expect(await refused.locator('details').textContent()).toContain('invalid_credentials');
    // ...and beside the field it is about.
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    expect(await current.locator('xpath=ancestor::div[contains(@class,"field")][1]').locator('.field-error').innerText()).toMatch(
      /current_password/,
    );
    expect((await elsewhere.request.get(`${vexil.baseUrl}/management/v1/session`)).status()).toBe(200);

    await current.fill(oldPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    expect((await elsewhere.request.get(`${vexil.baseUrl}/management/v1/session`)).status()).toBe(401);

    // The API holds the new password only.
    const signIn = (password: string) =>
      fetch(`${vexil.baseUrl}/management/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: vexil.ownerEmail, password }),
      });
    expect((await signIn(oldPassword)).status).toBe(401);

    await submitSignIn(page, vexil, vexil.ownerEmail, oldPassword);
    const message = page.getByRole('alert');
    await message.waitFor();
    expect(await message.locator('.error-words').innerText()).toBe('Wrong email or password.');
    expect(await message.locator('details').textContent()).toContain('invalid_credentials');
    await submitSignIn(page, vexil, vexil.ownerEmail, newPassword);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect((await page.request.get(`${vexil.baseUrl}/management/v1/session`)).status()).toBe(200);
    await elsewhere.context().close();
    await page.context().close();
  });
});
