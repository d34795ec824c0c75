import type { Browser, CDPSession, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn, startVexil, type RunningVexil } from './harness.js';
import { bannerPath, seedShop } from './shop.js';

interface Focused {
  /** The data-kb mark of the focused element (null: not a marked control, e.g. the body). */
  kb: string | null;
  role: string;
  /** The accessible name Chromium computed for it. */
  name: string;
  inDialog: boolean;
}

// Keyboard use of the flag page, the draft editor and the dialogs: every control is reached by
// Tab in page order and has an accessible name; a modal dialog keeps focus inside and gives it
// back when it closes.
describe('the flag page from the keyboard', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  const flagPath = bannerPath;

  /**
   * Marks the controls a keyboard user should reach inside `scope` (visible, enabled; of a radio
   * group only the checked radio, as browsers do) and returns their marks in page order.
   */
  async function markControls(scope: Locator): Promise<string[]> {
    return scope.evaluate((root) => {
      const selector = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
      const controls = Array.from(root.querySelectorAll<HTMLElement>(selector)).filter((el) => {
        if ((el as HTMLButtonElement).disabled || el.getAttribute('tabindex') === '-1') return false;
        if (el.getClientRects().length === 0) return false;
        // The content of a closed <details> is not in the Tab order (Chromium still gives it boxes);
        // its own <summary> is.
        const closed = el.closest('details:not([open])');
        if (closed && !(el.tagName === 'SUMMARY' && el.parentElement === closed)) return false;
        if (el instanceof HTMLInputElement && el.type === 'radio') {
          const group = Array.from(root.querySelectorAll<HTMLInputElement>(`input[type=radio][name="${el.name}"]`));
          return group.some((r) => r.checked) ? el.checked : group[0] === el;
        }
        return true;
      });
      return controls.map((el, i) => {
        el.dataset.kb = String(i);
        return String(i);
      });
    });
  }

  async function focused(): Promise<Focused> {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document.activeElement' });
    const facts = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { kb: el?.dataset.kb ?? null, inDialog: Boolean(el?.closest('dialog[open]')) };
    });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false });
    const node = nodes[0];
    return { ...facts, role: String(node?.role?.value ?? ''), name: String(node?.name?.value ?? '').trim() };
  }

  /** Presses Tab `times` times and records where focus went each time. */
  async function walk(times: number): Promise<Focused[]> {
    const seen: Focused[] = [];
    for (let i = 0; i < times; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused());
    }
    return seen;
  }

  beforeAll(async () => {
    vexil = await startVexil();
    const { Hello: hello, Sale: sale } = await seedShop(vexil, { values: ['Hello', 'Sale'], segment: false });
    // Staging: a draft with two rules (so the move buttons work); production: a rollout in progress.
    const staging = `${flagPath}/environments/staging/targets`;
    const draft = await vexil.ok('POST', staging);
    for (const [description, plan] of [
      ['Pro plan', 'pro'],
      ['Free plan', 'free'],
    ] as const) {
      await vexil.ok('POST', `${staging}/${draft.ulid}/rules`, {
        value_ulid: sale,
        description,
        criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: [plan] }],
      });
    }
    const production = `${flagPath}/environments/production/targets`;
    await vexil.ok('PUT', `${production}/${(await vexil.ok('POST', production)).ulid}/publish`, {});
    const next = await vexil.ok('POST', production);
    await vexil.ok('PUT', `${production}/${next.ulid}`, { value_ulid: hello });
    await vexil.ok('PUT', `${production}/${next.ulid}/publish`, { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 10 });
    await vexil.ok('PUT', '/projects/shop/environments/production', { name: 'Production', confirmation_required: true });
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    cdp = await page.context().newCDPSession(page);
    await signIn(page, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  /** Tabs through the whole page from its start: every control in page order, each named; returns the names. */
  async function walkPage(): Promise<string[]> {
    const controls = await markControls(page.locator('body'));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const seen = (await walk(controls.length + 1)).filter((f) => f.kb !== null);
    expect(seen.map((f) => f.kb)).toEqual(controls);
    const unnamed = seen.filter((f) => f.name === '').map((f) => `${f.kb} ${f.role}`);
    expect(unnamed).toEqual([]);
    return seen.map((f) => f.name);
  }

  it('reaches every control of the flag page and the draft editor by Tab, in page order, each with an accessible name', async () => {
    await page.goto(vexil.baseUrl + flagPath);
    await page.getByRole('button', { name: 'Move Pro plan down' }).waitFor();
    // Every part has loaded (the summary, and "Serve now" starting from the value served).
    await page.getByRole('switch', { name: 'banner in Production' }).waitFor();
    await page.getByRole('form', { name: 'Serve now in Staging' }).waitFor();
    const names = await walkPage();
    // The draft editor's own controls are among them: base value, move, edit, remove, the rule form, publish.
    expect(names.length).toBeGreaterThan(40);
    for (const name of [
      'banner in Staging',
      'banner in Production',
      'Base value',
      'Move Pro plan down',
      'Move Free plan up',
      'Edit Pro plan',
      'Remove Free plan',
      'Attribute of criterion 1',
      'Comparer of criterion 1',
      'Review and publish in Staging…',
    ]) {
      expect(names).toContain(name);
    }
    // The environments are tabs: one stop for the list, arrows move between them.
    const tab = page.getByRole('tab', { name: 'Staging' });
    await tab.focus();
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toMatchObject({ role: 'tab', name: 'Production' });
    await page.getByText('Rollout: manual, 10%, active').waitFor();
    await page.getByRole('form', { name: 'Serve now in Production' }).waitFor();
    // From the tab, Tab goes through its panel's controls in order.
    const inPanel = await markControls(page.getByRole('tabpanel'));
    // The panel's controls, then the flag's details after it (marked by the walk above, not here).
    const seen = (await walk(inPanel.length)).filter((f) => f.kb !== null);
    expect(seen.map((f) => f.kb)).toEqual(inPanel);
    expect(seen.filter((f) => f.name === '')).toEqual([]);
    for (const name of ['Pause rollout', 'New percentage']) expect(seen.map((f) => f.name)).toContain(name);
    await page.getByRole('tab', { name: 'Staging' }).click();
  });

  it('keeps focus inside the publish dialog, names its controls, and gives focus back on Escape', async () => {
    const opener = page.getByRole('button', { name: 'Review and publish in Staging…' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Publish in Staging' });
    await dialog.waitFor();
    // Focus starts in the dialog, on its first field.
    expect(await focused()).toMatchObject({ inDialog: true, name: 'Comment' });
    await dialog.getByLabel('manual').check();
    await dialog.getByLabel('Comment').focus();
    const controls = await markControls(dialog);
    const seen = await walk(controls.length * 2 + 2);
    // Focus never lands on the page behind the dialog (the browser's own UI may take a turn).
    expect(seen.filter((f) => f.kb !== null && !f.inDialog)).toEqual([]);
    expect(seen.filter((f) => f.name === '' && f.kb !== null)).toEqual([]);
    expect(new Set(seen.filter((f) => f.inDialog).map((f) => f.kb))).toEqual(new Set(controls));
    expect(seen.filter((f) => f.inDialog).map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'Comment',
        'Schedule for (optional)',
        'manual',
        'Percentage',
        'Publish to Staging',
        'Cancel',
        'Close dialog',
      ]),
    );
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Review and publish in Staging…');
  });

  it('keeps focus inside the typed confirmation of a rollout change, and Cancel gives it back', async () => {
    await page.getByRole('tab', { name: 'Production' }).click();
    const opener = page.getByRole('button', { name: 'Complete rollout' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Complete rollout in Production' });
    await dialog.waitFor();
    expect(await focused()).toMatchObject({ inDialog: true, name: 'Type production to change the rollout in Production' });
    await page.keyboard.type('production');
    const controls = await markControls(dialog);
    const seen = await walk(controls.length * 2 + 2);
    expect(seen.filter((f) => f.kb !== null && !f.inDialog)).toEqual([]);
    expect(new Set(seen.filter((f) => f.inDialog).map((f) => f.kb))).toEqual(new Set(controls));
    await dialog.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Complete rollout');
    // Nothing was changed by the cancelled dialog.
    const targets = await vexil.api('GET', `${flagPath}/environments/production/targets`);
    expect(targets.body.data[0]).toMatchObject({ rollout_status: 'active' });
  });
});
