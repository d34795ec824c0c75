import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { signIn, type RunningVexil } from './harness.js';

/** Signs in through the sign-in screen in a fresh browser context; returns its page on the projects screen. */
export async function signedInPage(
  browser: Browser,
  vexil: RunningVexil,
  email = vexil.ownerEmail,
  password = vexil.ownerPassword,
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, vexil, email, password);
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

export interface KeyboardWalk {
  /** Marks of the controls a keyboard user should reach, in page order. */
  controls: string[];
  /** Marks of the controls Tab reached, in the order it reached them (repeats within one control folded). */
  reached: string[];
  /** Controls reached whose accessible name (as Chromium computes it) is empty. */
  unnamed: string[];
  /** The accessible name of each control reached, in the order reached. */
  names: string[];
}

/**
 * Marks every visible, enabled control inside `scopeSelector` (of a radio group only the checked
 * radio, as browsers tab), then presses Tab from the start of the scope until focus has passed them all,
 * recording where it went and the accessible name Chromium gives each control.
 */
export async function walkByKeyboard(page: Page, scopeSelector = 'main'): Promise<KeyboardWalk> {
  const controls = await page.locator(scopeSelector).evaluate((root) => {
    const selector = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
    const found = Array.from(root.querySelectorAll<HTMLElement>(selector)).filter((el) => {
      if ((el as HTMLButtonElement).disabled || el.getAttribute('tabindex') === '-1' || el.getClientRects().length === 0) return false;
      if (el instanceof HTMLInputElement && el.type === 'radio') {
        const group = Array.from(root.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${el.name}"]`));
        return group.some((r) => r.checked) ? el.checked : group[0] === el;
      }
      return true;
    });
    document.querySelectorAll('[data-kb]').forEach((el) => el.removeAttribute('data-kb'));
    return found.map((el, i) => ((el.dataset.kb = String(i)), String(i)));
  });
  const cdp = await page.context().newCDPSession(page);
  // Start just before the scope, wherever a click or a typed field left the focus.
  await page.locator(scopeSelector).evaluate((root) => {
    const start = document.createElement('span');
    start.tabIndex = -1;
    start.dataset.walkStart = '';
    root.prepend(start);
    start.focus();
  });
  const reached: string[] = [];
  const unnamed: string[] = [];
  const names: string[] = [];
  const last = controls.at(-1);
  // Date inputs take several Tabs (one per part), so allow more presses than controls.
  for (let i = 0; i < controls.length * 4 + 10; i++) {
    await page.keyboard.press('Tab');
    const kb = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.kb ?? null);
    if (kb === null) {
      if (reached.length > 0 && reached.at(-1) === last) break;
      continue;
    }
    if (reached.at(-1) === kb) continue;
    reached.push(kb);
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
    const name = String(nodes[0]?.name?.value ?? '').trim();
    names.push(name);
    if (name === '')
      unnamed.push(
        `${kb} ${String(nodes[0]?.role?.value ?? '')} ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? '')}`,
      );
  }
  await cdp.detach();
  await page.evaluate(() => document.querySelector('[data-walk-start]')?.remove());
  return { controls, reached, unnamed, names };
}

/** Opens every closed <details> inside main, so the controls inside count. */
export async function openAllDetails(page: Page): Promise<void> {
  await page.locator('main').evaluate((root) => root.querySelectorAll('details:not([open])').forEach((d) => d.setAttribute('open', '')));
}
