import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { signedInPage } from './admin-support.js';

const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(3, '0')}`);

// The list screens page through the server's pages with Previous and Next, so no list stops at
// the first page: projects, a project's environments, segments, tokens and accounts.
describe('the console: paging the lists', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;

  /** Every item of a management list, following next_cursor, as `pick` names it. */
  async function everything(route: string, pick: (item: any) => string): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await vexil.api('GET', `${route}?per_page=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      names.push(...res.body.data.map(pick));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    return names;
  }

  /**
   * Opens `path`, reads every page with Next until it is disabled, then goes back to the first
   * with Previous; returns what each page showed.
   */
  async function pageThrough(path: string, pager: string, shown: () => Promise<string[]>): Promise<string[][]> {
    await page.goto(vexil.baseUrl + path);
    const nav = page.getByRole('navigation', { name: pager });
    const next = nav.getByRole('button', { name: 'Next page' });
    const previous = nav.getByRole('button', { name: 'Previous page' });
    await nav.waitFor();
    expect(await previous.isDisabled()).toBe(true);
    const pages: string[][] = [];
    // A page is shown when its number is, and its items replaced the page before's.
    const settled = async (number: number, before: string[] | undefined) => {
      await nav.getByText(`Page ${number}`, { exact: true }).waitFor();
      await expect
        .poll(async () => {
          const items = await shown();
          return items.length > 0 && JSON.stringify(items) !== JSON.stringify(before);
        })
        .toBe(true);
      return shown();
    };
    pages.push(await settled(1, undefined));
    while (!(await next.isDisabled())) {
      await next.click();
      pages.push(await settled(pages.length + 1, pages.at(-1)));
    }
    expect(await seriousViolations(page)).toEqual([]);
    for (let number = pages.length - 1; number >= 1; number--) {
      await previous.click();
      expect(await settled(number, pages[number])).toEqual(pages[number - 1]);
    }
    expect(await previous.isDisabled()).toBe(true);
    return pages;
  }

  /** Every item shown once, across more than one page. */
  function expectEachOnce(pages: string[][], all: string[]): void {
    expect(pages.length).toBeGreaterThan(1);
    const seen = pages.flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...all].sort());
  }

  beforeAll(async () => {
    // Room for the few hundred setup requests of the owner token.
    vexil = await startVexil({ VEXIL_RATE_LIMIT_ELEVATED: '10000' });
    await vexil.ok('POST', '/projects', { key: 'shop', name: 'Shop', environments: [] });
    for (const key of numbered('p', 101)) await vexil.ok('POST', '/projects', { key, name: `Project ${key}`, environments: [] });
    for (const key of numbered('env', 26)) await vexil.ok('POST', '/projects/shop/environments', { key, name: `Environment ${key}` });
    for (const key of numbered('seg', 26))
      await vexil.ok('POST', '/projects/shop/segments', { key, name: `Segment ${key}`, included: [key] });
    for (const name of numbered('ci', 51)) await vexil.ok('POST', '/tokens', { name, scopes: ['flags:read'] });
    for (const name of numbered('person', 26))
      await vexil.ok('POST', '/accounts', { name, email: `${name}@shop.test`, role: 'member', projects: [] });
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('projects', async () => {
    const pages = await pageThrough('/projects', 'Pages of projects', () =>
      page.locator('main tbody tr td:nth-child(2) code').allInnerTexts(),
    );
    expectEachOnce(pages, await everything('/projects', (p) => p.key));
    expect(pages.flat()).toHaveLength(102);
  });

  it("a project's environments", async () => {
    const pages = await pageThrough('/projects/shop', 'Pages of environments', () =>
      page.locator('main article.environment h2 code').allInnerTexts(),
    );
    expectEachOnce(pages, await everything('/projects/shop/environments', (e) => e.key));
    expect(pages.flat()).toHaveLength(26);
  });

  it('segments', async () => {
    const pages = await pageThrough('/projects/shop/segments', 'Pages of segments', () =>
      page.locator('main article.environment h2 code').allInnerTexts(),
    );
    expectEachOnce(pages, numbered('seg', 26));
  });

  it('tokens', async () => {
    const pages = await pageThrough('/tokens', 'Pages of tokens', () =>
      page.locator('main tbody tr[data-token]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.token ?? '')),
    );
    const all = await everything('/tokens', (t) => t.ulid);
    expect(all.length).toBeGreaterThanOrEqual(51);
    expectEachOnce(pages, all);
  });

  it('accounts', async () => {
    const pages = await pageThrough('/accounts', 'Pages of accounts', () =>
      page.locator('main article.environment h2 small').allInnerTexts(),
    );
    expectEachOnce(pages, await everything('/accounts', (a) => a.email));
    expect(pages.flat()).toHaveLength(27);
  });
  it('pickers and filters offer every project, past the API page of 100', async () => {
    const all = await everything('/projects', (p) => p.key);
    expect(all).toHaveLength(102);
    const optionValues = (select: ReturnType<Page['getByLabel']>) =>
      select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));

    await page.goto(`${vexil.baseUrl}/tokens`);
    const grant = page.getByLabel('Grant project');
    await expect.poll(() => optionValues(grant)).toHaveLength(102);
    expect((await optionValues(grant)).sort()).toEqual([...all].sort());

    await page.goto(`${vexil.baseUrl}/audit`);
    const filter = page.getByRole('search', { name: 'Audit filters' }).getByLabel('Project');
    await expect.poll(() => optionValues(filter)).toHaveLength(102);
    expect((await optionValues(filter)).sort()).toEqual([...all].sort());

    await page.goto(`${vexil.baseUrl}/accounts`);
    const choice = page.getByRole('group', { name: 'Projects of the new member' }).getByRole('checkbox');
    await expect.poll(() => choice.count()).toBe(102);
    await page.getByRole('group', { name: 'Projects of the new member' }).getByRole('checkbox', { name: /p-101/ }).check();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
