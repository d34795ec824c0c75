import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningVexil } from './harness.js';

/** Signs in through the sign-in screen in a fresh browser context; returns its page on the projects screen. */
export async function signedInPage(browser: Browser, vexil: RunningVexil, email = vexil.ownerEmail, password = vexil.ownerPassword): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(vexil.baseUrl);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  return page;
}

/**
 * Presses Tab until `target` has the focus, proving it is reachable by keyboard in the tab order
 * (a control the keyboard cannot reach never gets there).
 */
export async function tabTo(page: Page, target: Locator, maxPresses = 200): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached by Tab within ${maxPresses} presses: ${target.toString()}`);
}

/** The answer of the next request matching method and path fragment, once `act` has run. */
export async function answerOf(page: Page, method: string, pathPart: string, act: () => Promise<void>): Promise<number> {
  const response = page.waitForResponse((r) => r.request().method() === method && r.url().includes(pathPart));
  await act();
  return (await response).status();
}

/** GET /v1/flags with an environment key: its HTTP status. */
export async function publicStatus(vexil: RunningVexil, key: string): Promise<number> {
  const res = await fetch(`${vexil.baseUrl}/v1/flags`, { headers: { 'x-vexil-api-key': key } });
  return res.status;
}

export function expectOk(res: { status: number; body: unknown }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
