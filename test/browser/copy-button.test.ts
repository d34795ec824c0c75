import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousViolations, signIn, startVexil, type RunningVexil } from './harness.js';

// The copy button of a secret shown once, where the page has the Clipboard API (localhost), and
// where it has not: a plain-HTTP address that is not localhost (vexil.test, resolved to this machine).
describe('the console: copying a secret', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  const insecureHost = 'vexil.test';

  /** Signs in at `baseUrl` in a fresh context and creates a token there; returns the page and the secret shown. */
  async function newTokenAt(
    baseUrl: string,
    name: string,
    prepare?: (page: Page) => Promise<unknown>,
  ): Promise<{ context: BrowserContext; page: Page; secret: string }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    await prepare?.(page);
    await signIn(page, { ...vexil, baseUrl });
    await page.goto(`${baseUrl}/tokens`);
    const form = page.getByRole('form', { name: 'New token' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.locator('p.secret code').innerText();
    expect(secret).toMatch(/^\S{20,}$/);
    return { context, page, secret };
  }

  /** What the clipboard holds, read by a page of the secure (localhost) origin. */
  async function clipboardText(context: BrowserContext): Promise<string> {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: vexil.baseUrl });
    const reader = await context.newPage();
    await reader.goto(`${vexil.baseUrl}/docs`);
    const text = await reader.evaluate(() => navigator.clipboard.readText());
    await reader.close();
    return text;
  }

  beforeAll(async () => {
    vexil = await startVexil();
    browser = await launchBrowser([`--host-resolver-rules=MAP ${insecureHost} 127.0.0.1`]);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  const insecureUrl = () => `http://${insecureHost}:${new URL(vexil.baseUrl).port}`;

  it('copies with the Clipboard API where the page has it, and says so', async () => {
    const { context, page, secret } = await newTokenAt(vexil.baseUrl, 'deploy');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: vexil.baseUrl });
    await page.locator('p.secret').getByRole('button', { name: 'Copy' }).click();
    await page.locator('p.secret').getByRole('status').getByText('Copied to the clipboard.').waitFor();
    expect(await clipboardText(context)).toBe(secret);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('copies on a plain-HTTP address without the Clipboard API, and says so', async () => {
    const { context, page, secret } = await newTokenAt(insecureUrl(), 'deploy-over-http');
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, clipboard: typeof navigator.clipboard }))).toEqual({
      secure: false,
      clipboard: 'undefined',
    });
    await page.locator('p.secret').getByRole('button', { name: 'Copy' }).click();
    await page.locator('p.secret').getByRole('status').getByText('Copied to the clipboard.').waitFor();
    expect(await clipboardText(context)).toBe(secret);
    await context.close();
  });

  it('where nothing can copy, selects the secret in a field and says to copy it', async () => {
    const { context, page, secret } = await newTokenAt(insecureUrl(), 'deploy-by-hand', (p) =>
      // A browser that refuses the copy command as well.
      p.addInitScript(() => {
        document.execCommand = () => false;
      }),
    );
    await page.locator('p.secret').getByRole('button', { name: 'Copy' }).click();
    await page
      .locator('p.secret')
      .getByRole('status')
      .getByText('Select and copy: the text is selected, press Ctrl+C (⌘C on a Mac).')
      .waitFor();
    const field = page.getByLabel('Text to copy');
    expect(await field.inputValue()).toBe(secret);
    expect(
      await field.evaluate((el) => {
        const input = el as HTMLInputElement;
        return document.activeElement === input && input.selectionStart === 0 && input.selectionEnd === input.value.length;
      }),
    ).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
