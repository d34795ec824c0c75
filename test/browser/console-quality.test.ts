import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPage } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, signIn, startVexil, type RunningVexil } from './harness.js';

const project = 'quality';

/** Every screen of the console, by address, with the heading it opens on. */
const screens: Array<[string, string, string | RegExp]> = [
  ['projects', '/projects', 'Projects'],
  ['project', `/projects/${project}`, /Quality/],
  ['flags', `/projects/${project}/flags`, `Flags of ${project}`],
  ['flag', `/projects/${project}/flags/checkout`, /Checkout/],
  ['segments', `/projects/${project}/segments`, `Segments of ${project}`],
  ['insights', `/projects/${project}/insights`, `Insights of ${project}`],
  ['webhooks', `/projects/${project}/webhooks`, `Webhooks of ${project}`],
  ['audit', '/audit', 'Audit log'],
  ['tokens', '/tokens', 'Management tokens'],
  ['accounts', '/accounts', 'Accounts'],
  ['account', '/account', 'Account'],
];

async function open(page: Page, vexil: RunningVexil, address: string, heading: string | RegExp): Promise<void> {
  await page.goto(vexil.baseUrl + address);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // The screen's lists have arrived (nothing is still loading).
  await page.waitForLoadState('networkidle');
}

/** What the focused element is, in words a failure message can show. */
const focused = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.trim()}`);

// Quality across the console: keyboard start and focus, an ended session, phone width, dark mode,
// the API reference's accessibility, revoking with confirmation, errors in words, dates.
describe('console quality', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let stagingKey = '';

  beforeAll(async () => {
    vexil = await startVexil();
    browser = await launchBrowser();
    await vexil.ok('POST', '/projects', {
      key: project,
      name: 'Quality',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    await vexil.ok('POST', `/projects/${project}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    await vexil.ok('POST', `/projects/${project}/segments`, { key: 'beta', name: 'Beta', included: ['u-1'], excluded: [], rules: [] });
    stagingKey = (await vexil.ok('POST', `/projects/${project}/environments/staging/keys`, { kind: 'server' })).key;
    await vexil.ok('POST', '/tokens', { name: 'ci-deploy', scopes: ['flags:read'], tier: 'standard' });
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('offers a skip link first and moves focus to the main heading after each navigation', async () => {
    const page = await signedInPage(browser, vexil);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('A Skip to content');
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('H1 Projects');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Tokens' }).click();
    await expect.poll(() => focused(page)).toBe('H1 Management tokens');
    await nav.getByRole('link', { name: 'Audit log' }).click();
    await expect.poll(() => focused(page)).toBe('H1 Audit log');
    // A screen whose heading waits for its data gets the focus once it is there.
    await nav.getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('link', { name: 'Quality', exact: true }).click();
    await expect.poll(() => focused(page)).toMatch(/^H1 .*Quality/);
    // Back in the browser's history is a navigation too.
    await page.goBack();
    await expect.poll(() => focused(page)).toBe('H1 Projects');
    await page.context().close();
  });

  it('sends an ended session back to sign-in once, then to the page it was on', async () => {
    const page = await signedInPage(browser, vexil);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens' }).click();
    await page.getByRole('heading', { name: 'Management tokens' }).waitFor();
    // The session ends (here: its cookie is gone, as when it expired); the next request is a 401.
    await page.context().clearCookies();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    expect(await page.getByRole('status').innerText()).toContain('Your session has ended');
    // No screen is left showing an error for the 401.
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/audit');
    await page.getByLabel('Email').fill(vexil.ownerEmail);
    await page.getByLabel('Password').fill(vexil.ownerPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/audit');
    await page.context().close();
  });

  it('fits every screen in 390 px without sideways scrolling', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, vexil);
    for (const [name, address, heading] of screens) {
      await open(page, vexil, address, heading);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${name} is ${width} px wide`).toBeLessThanOrEqual(390);
      await screenshot(page, `quality-390-${name}`);
    }
    await context.close();
    const signInPage = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signInPage.goto(vexil.baseUrl);
    await signInPage.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    expect(await signInPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await signInPage.context().close();
  });

  it('follows a dark system setting, and every screen still passes axe', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page, vexil);
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(background).toBe('rgb(17, 20, 24)');
    for (const [name, address, heading] of screens) {
      await open(page, vexil, address, heading);
      expect(await seriousViolations(page), name).toEqual([]);
      await screenshot(page, `quality-dark-${name}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(246, 247, 249)');
    await context.close();
  });

  it('shows every date in one format: relative, with the exact time on hover', async () => {
    // The flag is published, evaluated and used in staging, so its page has every kind of date.
    const checkout = `/projects/${project}/flags/checkout`;
    const draft = await vexil.ok('POST', `${checkout}/environments/staging/targets`);
    await vexil.ok('PUT', `${checkout}/environments/staging/targets/${draft.ulid}/publish`, { comment: 'dates' });
    const headers = {
      'x-vexil-api-key': stagingKey,
      'x-vexil-context': JSON.stringify({ type: 'user', identifier: 'u-1', attributes: [] }),
    };
    expect((await fetch(`${vexil.baseUrl}/v1/flags/checkout`, { headers })).status).toBe(200);
    expect((await fetch(`${vexil.baseUrl}/v1/flags/checkout/usage`, { method: 'POST', headers })).status).toBe(200);
    const insights = async () => (await vexil.ok('GET', `${checkout}/environments/staging/insights`)) as Record<string, string | null>;
    // Telemetry is written in batches; nothing retrieves the payload, so retrieval stays unknown.
    await expect
      .poll(
        async () => {
          const { last_evaluated_at, last_used_at } = await insights();
          return last_evaluated_at !== null && last_used_at !== null;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    const known = Object.entries(await insights()).filter(([field, at]) => field.endsWith('_at') && at !== null).length;

    const page = await signedInPage(browser, vexil);
    for (const [name, address, heading] of screens) {
      await open(page, vexil, address, heading);
      const text = await page.locator('main').innerText();
      expect(text, `${name} shows a raw time`).not.toMatch(/\d{4}-\d\d-\d\d[T ]\d\d:\d\d/);
      const times = await page
        .locator('main time')
        .evaluateAll((all) => all.map((t) => ({ at: t.getAttribute('datetime'), title: t.getAttribute('title'), text: t.textContent })));
      for (const time of times) {
        expect(time.at, `${name}: ${time.text}`).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(time.title, `${name}: ${time.text}`).toMatch(/\d{4}/);
        expect(time.text, name).toMatch(/^(just now|in a few seconds|.+ ago|in .+|yesterday|tomorrow|last .+|next .+)$/);
      }
      if (name === 'flag') {
        // The summary's last change and the panel's insights line, each a relative time.
        expect(await page.getByTestId('summary-staging').locator('time').count()).toBe(1);
        const line = page.getByText(/^Last retrieved /);
        expect(await line.innerText()).toMatch(/evaluated (just now|\d+ seconds? ago)/);
        expect(await line.locator('time').count()).toBe(known);
      }
    }
    await page.context().close();
  });

  it('serves /docs with no serious or critical axe violation, for both documents', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${vexil.baseUrl}/docs`);
    await page.locator('.info .title', { hasText: 'Vexil management API' }).waitFor();
    await page.locator('.opblock-summary').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // An operation opened shows its parameters and responses: still none.
    await page.locator('.opblock-summary-control').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'quality-docs-management');
    await page.getByLabel('Select a definition').selectOption('Evaluation API');
    await page.locator('.info .title', { hasText: /evaluation/i }).waitFor();
    await page.locator('.opblock-summary').first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'quality-docs-public');
    await page.context().close();
  });

  it('sends the console and the reference compressed with brotli to the browser', async () => {
    const page = await (await browser.newContext()).newPage();
    const encodings = new Map<string, string | undefined>();
    page.on('response', (response) => {
      const pathname = new URL(response.url()).pathname;
      if (pathname.startsWith('/assets/') || pathname.startsWith('/docs/swagger-ui'))
        encodings.set(pathname, response.headers()['content-encoding']);
    });
    await page.goto(vexil.baseUrl);
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    await page.goto(`${vexil.baseUrl}/docs`);
    await page.locator('.info .title').waitFor();
    const scripts = [...encodings].filter(([pathname]) => pathname.endsWith('.js') || pathname.endsWith('.css'));
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const [pathname, encoding] of scripts) expect(encoding, pathname).toBe('br');
    // The console's script stays under 150 KB with gzip.
    const assets = path.join(import.meta.dirname, '../../web/dist/assets');
    const gzipped = fs
      .readdirSync(assets)
      .filter((name) => name.endsWith('.js.gz'))
      .reduce((sum, name) => sum + fs.statSync(path.join(assets, name)).size, 0);
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(150 * 1024);
    await page.context().close();
  });

  it('asks before revoking a token or a key, and revokes only when confirmed', async () => {
    const page = await signedInPage(browser, vexil);
    await open(page, vexil, '/tokens', 'Management tokens');
    await page.getByRole('button', { name: 'Revoke ci-deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke ci-deploy?' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'quality-revoke-token');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const tokens = async () => (await vexil.ok('GET', '/tokens')) as Array<{ name: string; revoked_at: string | null }>;
    expect((await tokens()).find((t) => t.name === 'ci-deploy')?.revoked_at).toBeNull();
    await page.getByRole('button', { name: 'Revoke ci-deploy' }).click();
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    const row = page.locator('tr', { hasText: 'ci-deploy' });
    await row.getByText('revoked').waitFor();
    expect((await tokens()).find((t) => t.name === 'ci-deploy')?.revoked_at).not.toBeNull();
    // The date is relative, with the exact time on hover.
    const when = row.locator('time').last();
    expect(await when.innerText()).toBe('just now');
    expect(await when.getAttribute('title')).toMatch(/\d{4}/);

    await open(page, vexil, `/projects/${project}`, /Quality/);
    const keys = page.getByRole('region', { name: 'Keys of Staging' });
    const revoke = keys.getByRole('button', { name: /^Revoke / });
    await revoke.click();
    const keyDialog = page.getByRole('dialog', { name: /^Revoke .*\?$/ });
    await keyDialog.getByRole('button', { name: 'Cancel' }).click();
    const stagingKeys = async () =>
      (await vexil.ok('GET', `/projects/${project}/environments/staging/keys`)) as Array<{ revoked_at: string | null }>;
    expect((await stagingKeys()).every((k) => k.revoked_at === null)).toBe(true);
    await revoke.click();
    await keyDialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await keys.getByText('revoked').waitFor();
    expect((await stagingKeys()).every((k) => k.revoked_at !== null)).toBe(true);
    await page.context().close();
  });

  it('says what went wrong once, in words, with the code in a detail', async () => {
    const page = await signedInPage(browser, vexil);
    await page.getByLabel('Key').fill('Not A Key');
    await page.getByLabel('Name', { exact: true }).fill('Bad key');
    await page.getByRole('button', { name: 'Create project' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const beside = await page.locator('.field-error').innerText();
    expect(beside.length).toBeGreaterThan(0);
    // The field's message is beside the field; the alert does not repeat it, nor shows a raw code.
    expect(await alert.locator('.error-words').innerText()).toBe(
      'Nothing was saved: one field needs a change (see the message beside it).',
    );
    expect(await alert.locator('.error-words').innerText()).not.toContain(beside);
    await alert.getByText('Details').click();
    expect(await alert.locator('details').innerText()).toContain('validation_failed');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('creates a segment with its member identifiers from "New segment"', async () => {
    const page = await signedInPage(browser, vexil);
    await open(page, vexil, `/projects/${project}/segments`, `Segments of ${project}`);
    const form = page.getByRole('form', { name: 'New segment' });
    await form.getByLabel('Key').fill('staff');
    await form.getByLabel('Name', { exact: true }).fill('Staff');
    await form.getByLabel('Always members (identifiers, comma-separated)').fill('ada, grace');
    await form.getByLabel('Never members (identifiers, comma-separated)').fill('mallory');
    await form.getByRole('button', { name: 'Create segment' }).click();
    await page.getByRole('heading', { name: 'Staff staff' }).waitFor();
    expect(await page.getByRole('article', { name: 'Staff staff' }).innerText()).toContain('ada, grace');
    const segment = await vexil.ok('GET', `/projects/${project}/segments/staff`);
    expect(segment).toMatchObject({ included: ['ada', 'grace'], excluded: ['mallory'] });
    await page.context().close();
  });
});

describe('a rate limit reached in the console', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  beforeAll(async () => {
    vexil = await startVexil({ VEXIL_CONSOLE_READ_RATE_LIMIT: '40' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('says so in words, with when to try again', async () => {
    const page = await signedInPage(browser, vexil);
    // The session's reads are spent (by the same browser, so with its cookie).
    let status = 200;
    for (let i = 0; i < 60 && status !== 429; i++) status = (await page.request.get(`${vexil.baseUrl}/management/v1/projects`)).status();
    expect(status).toBe(429);
    const refused = new Set<string>();
    page.on('response', (response) => {
      if (response.status() === 429) refused.add(new URL(response.url()).pathname);
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tokens' }).click();
    // The list and the new-token form's project picker are both refused: the screen says so once, at its top.
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await page.getByRole('heading', { level: 1, name: 'Management tokens' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await alert.count()).toBe(1);
    expect(await page.locator('main > [role="alert"]').count()).toBe(1);
    expect([...refused].sort()).toEqual(['/management/v1/projects', '/management/v1/tokens']);
    expect(await alert.locator('.error-words').innerText()).toMatch(/^Too many requests for now: try again in \d+ seconds? \(at .+\)\.$/);
    await alert.getByText('Details').click();
    expect(await alert.locator('details').innerText()).toContain('rate_limited');
    await screenshot(page, 'quality-rate-limited');
    await page.context().close();
  });
});
