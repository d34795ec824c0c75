import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAllDetails } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, signIn, startVexil, type RunningVexil } from './harness.js';
import { bannerPath, environmentPanel, openEnvironment, publishBetaSale, seedShop } from './shop.js';

/**
 * A screen to check: its address, the heading it opens on, and what to wait for or do once it is
 * there (an environment's tab, a list's rows).
 */
interface Screen {
  name: string;
  address: string;
  heading: string | RegExp;
  ready?: (page: Page) => Promise<void>;
}

// Every screen of the console with content in it (published rules, a rollout in progress, a draft
// being edited, evaluations charted, history, a webhook's delivery log, audit entries, tokens and
// accounts), every <details> opened: none scrolls sideways at 390 px, and none has a serious or
// critical axe violation, at 390 px and on a wide screen in the light and the dark setting.
// Screenshots of each are kept.
describe('every screen with content: phone width and axe', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let receiver: http.Server;
  const deliveries: string[] = [];

  const screens: Screen[] = [
    { name: 'projects', address: '/projects', heading: 'Projects' },
    { name: 'project', address: '/projects/shop', heading: /Shop/ },
    { name: 'flags', address: '/projects/shop/flags', heading: 'Flags of shop' },
    {
      name: 'flag-staging-draft',
      address: bannerPath,
      heading: /Banner/,
      ready: async (page) => {
        const panel = environmentPanel(page, 'Staging');
        await panel.getByRole('list', { name: 'Published rules in Staging' }).waitFor();
        await panel.getByRole('region', { name: 'Draft in Staging' }).waitFor();
        await panel.locator('svg.evaluation-bars').waitFor();
      },
    },
    {
      name: 'flag-production-rollout',
      address: bannerPath,
      heading: /Banner/,
      ready: async (page) => {
        await page.getByTestId('summary-production').waitFor();
        await openEnvironment(page, 'Production');
        await environmentPanel(page, 'Production').getByText('Contexts outside the rollout').waitFor();
      },
    },
    { name: 'segments', address: '/projects/shop/segments', heading: 'Segments of shop' },
    { name: 'insights', address: '/projects/shop/insights', heading: 'Insights of shop' },
    {
      name: 'webhooks',
      address: '/projects/shop/webhooks',
      heading: 'Webhooks of shop',
      ready: async (page) => {
        // The ping's delivery, in the log of the subscription.
        await page.locator('tbody tr', { hasText: 'webhook.ping' }).filter({ hasText: 'delivered' }).first().waitFor();
      },
    },
    {
      name: 'audit',
      address: '/audit',
      heading: 'Audit log',
      ready: async (page) => {
        await page.getByText('What went live').first().waitFor();
      },
    },
    { name: 'tokens', address: '/tokens', heading: 'Management tokens' },
    { name: 'accounts', address: '/accounts', heading: 'Accounts' },
    { name: 'account', address: '/account', heading: 'Account' },
  ];

  async function open(page: Page, screen: Screen): Promise<void> {
    await page.goto(vexil.baseUrl + screen.address);
    await page.getByRole('heading', { level: 1, name: screen.heading }).waitFor();
    await screen.ready?.(page);
    await page.waitForLoadState('networkidle');
    await openAllDetails(page);
  }

  /** Waits for work done in the background (expect.poll is for tests, not their set-up). */
  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const width = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
  /** The innermost elements reaching past the viewport's right edge, named for a failure message. */
  const overflowing = (page: Page) =>
    page.evaluate(() => {
      const edge = document.documentElement.clientWidth;
      // An element inside a box that scrolls or clips (a table on a phone) does not widen the page.
      const clipped = (e: Element) => {
        for (let a = e.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
        return false;
      };
      const past = Array.from(document.querySelectorAll('body *')).filter(
        (e) => e.getBoundingClientRect().right > edge + 0.5 && !clipped(e),
      );
      // Only the innermost: an element none of whose descendants is past the edge too.
      return past
        .filter((e) => !past.some((o) => o !== e && e.contains(o)))
        .slice(0, 8)
        .map(
          (e) =>
            `${e.tagName.toLowerCase()}.${Array.from(e.classList).join('.')} "${(e.textContent ?? '').trim().slice(0, 40)}" ${Math.round(e.getBoundingClientRect().right)}`,
        );
    });

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        deliveries.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/a-rather-long-path-for-a-narrow-screen`;
    vexil = await startVexil({ VEXIL_WEBHOOK_ALLOW_HTTP: 'true', VEXIL_WEBHOOK_ALLOW_PRIVATE: 'true', VEXIL_WEBHOOK_POLL_MS: '100' });
    const value = await seedShop(vexil);
    const webhook = await vexil.ok('POST', '/projects/shop/webhooks', { url: endpoint, events: ['target.published'] });
    await vexil.ok('POST', `/projects/shop/webhooks/${webhook.ulid}/ping`);

    // Staging: the beta segment gets Sale; then a draft with a rule of several criteria, left open.
    await publishBetaSale(vexil, value);
    const staging = `${bannerPath}/environments/staging/targets`;
    const draft = await vexil.ok('POST', staging);
    await vexil.ok('POST', `${staging}/${draft.ulid}/rules`, {
      value_ulid: value.Gift,
      description: 'Customers on the professional plan in a few countries',
      criteria: [
        { selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: ['professional', 'enterprise', 'team'] },
        { selector: 'attribute', sub_selector: 'country', comparer: 'in', values: ['FR', 'DE', 'CH', 'AT', 'BE', 'NL', 'LU'] },
      ],
    });
    // Production: one publish, then a second rolling out to 25 % (the previous one shown beside it).
    const production = `${bannerPath}/environments/production/targets`;
    const first = await vexil.ok('POST', production);
    await vexil.ok('PUT', `${production}/${first.ulid}`, { value_ulid: value.Sale });
    await vexil.ok('PUT', `${production}/${first.ulid}/publish`, { comment: 'first' });
    const second = await vexil.ok('POST', production);
    await vexil.ok('PUT', `${production}/${second.ulid}`, { value_ulid: value.Gift });
    await vexil.ok('POST', `${production}/${second.ulid}/rules`, {
      value_ulid: value.Hello,
      description: 'Beta',
      criteria: [{ selector: 'segment', comparer: 'equal', values: ['beta'] }],
    });
    await vexil.ok('PUT', `${production}/${second.ulid}/publish`, {
      comment: 'a second publish with a comment long enough to wrap on a phone',
      rollout_enabled: true,
      rollout_mode: 'manual',
      rollout_percentage: 25,
    });

    // Evaluations in staging, with contexts of several attributes: the chart and the observed contexts.
    const key = (await vexil.ok('POST', '/projects/shop/environments/staging/keys', { kind: 'server' })).key as string;
    for (const [identifier, plan] of [
      ['u-beta', 'professional'],
      ['u-2', 'free'],
      ['u-3', 'enterprise'],
    ]) {
      const context = { type: 'user', identifier, attributes: [{ key: 'plan', values: [{ value: plan }] }] };
      const answer = await fetch(`${vexil.baseUrl}/v1/flags/banner`, {
        headers: { 'x-vexil-api-key': key, 'x-vexil-context': JSON.stringify(context) },
      });
      expect(answer.status).toBe(200);
    }
    await vexil.ok('POST', '/tokens', { name: 'deploy pipeline of the shop', scopes: ['flags:read', 'targets:write'], tier: 'standard' });
    await vexil.ok('POST', '/accounts', { name: 'Ada Lovelace', email: 'ada@shop.test', role: 'member', projects: ['shop'] });
    // Written in the background: the chart and the delivery log have something to show.
    await until(async () => (await vexil.ok('GET', `${bannerPath}/environments/staging/evaluations`)).total_24h === 3, 'evaluations');
    await until(async () => deliveries.length > 0, 'the ping delivered');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('fits every screen in 390 px, details open, without sideways scrolling or a serious axe violation', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, vexil);
    const wide: string[] = [];
    for (const screen of screens) {
      await open(page, screen);
      const px = await width(page);
      if (px > 390) wide.push(`${screen.name}: ${px} px: ${(await overflowing(page)).join('; ')}`);
      // The narrow layout (tables in their own scrolling box) keeps what axe checks.
      for (const violation of await seriousViolations(page)) wide.push(`${screen.name} at 390 px: ${violation}`);
      await screenshot(page, `content-390-${screen.name}`);
    }
    expect(wide).toEqual([]);
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violation on any screen, details open, in the ${colorScheme} setting`, async () => {
      const page = await (await browser.newContext({ colorScheme })).newPage();
      await signIn(page, vexil);
      const found: Record<string, string[]> = {};
      for (const screen of screens) {
        await open(page, screen);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[screen.name] = violations;
        await screenshot(page, `content-${colorScheme}-${screen.name}`);
      }
      expect(found).toEqual({});
      await page.context().close();
    });
  }

  it('fits the password choice and /docs in 390 px, each passing axe', async () => {
    const ada = (await vexil.ok('GET', '/accounts')).find((a: { email: string }) => a.email === 'ada@shop.test');
    await vexil.ok('PUT', `/accounts/${ada.ulid}/password`, { password: 'temporary for ada' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(vexil.baseUrl);
    await page.getByLabel('Email').fill('ada@shop.test');
    await page.getByLabel('Password').fill('temporary for ada');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(await width(page)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'content-390-choose-password');
    await page.goto(`${vexil.baseUrl}/docs`);
    await page.locator('.opblock').first().waitFor();
    await screenshot(page, 'content-390-docs');
    expect(await width(page), `/docs: ${(await overflowing(page)).join('; ')}`).toBeLessThanOrEqual(390);
    // An operation opened: its parameters and responses.
    await page.locator('.opblock-summary-control').first().click();
    await page.locator('.opblock-body .responses-table').first().waitFor();
    await screenshot(page, 'content-390-docs-operation');
    expect(await width(page), `/docs, an operation open: ${(await overflowing(page)).join('; ')}`).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page), '/docs at 390 px').toEqual([]);
    await context.close();
  });
});
