import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { expectOk, signedInPage, tabTo } from './admin-support.js';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';

/** The query parameters the management document gives an operation, by name. */
function documentedQueryParameters(operationId: string): string[] {
  const document = YAML.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../specs/management.yaml'), 'utf8'));
  for (const item of Object.values(document.paths) as Array<
    Record<string, { operationId?: string; parameters?: Array<{ $ref?: string; name?: string; in?: string }> }>
  >) {
    const operation = Object.values(item).find((o) => typeof o === 'object' && o?.operationId === operationId);
    if (!operation) continue;
    return (operation.parameters ?? [])
      .map((p) => (p.$ref ? document.components.parameters[p.$ref.split('/').pop() as string] : p))
      .filter((p) => p.in === 'query')
      .map((p) => p.name as string);
  }
  throw new Error(`no operation ${operationId}`);
}

// The audit log in Chromium: every filter of both audit operations, readable changes, cursor paging.
describe('the console: audit log', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  let token: { ulid: string; token: string };
  const rows = () => page.getByRole('table', { name: /audit entries/ }).locator(':scope > tbody > tr');

  beforeAll(async () => {
    vexil = await startVexil();
    expectOk(
      await vexil.api('POST', '/projects', {
        key: 'shop',
        name: 'Shop',
        description: '',
        environments: [{ key: 'staging', name: 'Staging' }],
      }),
    );
    // Thirty-five creations to page through, oldest first: flag-01 ... flag-35.
    for (let i = 1; i <= 35; i++)
      expectOk(
        await vexil.api('POST', '/projects/shop/flags', { key: `flag-${String(i).padStart(2, '0')}`, name: `Flag ${i}`, type: 'boolean' }),
      );
    const created = await vexil.api('POST', '/tokens', { name: 'reporting', scopes: ['flags:read'] });
    token = { ulid: created.body.data.ulid, token: created.body.data.token };
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${vexil.baseUrl}/management/v1/projects/shop/flags`, {
        headers: { authorization: `Bearer ${token.token}` },
      });
      expect(res.status).toBe(200);
    }
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await rows().first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('offers every query parameter of both audit operations as a filter, and sends each', async () => {
    const filters = page.getByRole('search', { name: 'Audit filters' });
    for (const [log, operationId] of [
      ['Management requests', 'listAuditLogs'],
      ['Public API traffic', 'listPublicAuditLogs'],
    ] as const) {
      await page.getByLabel(log).check();
      const parameters = documentedQueryParameters(operationId);
      expect(parameters).toContain('management_token_ulid');
      for (const name of parameters) {
        // The cursor is the pager's: Previous and Next.
        if (name === 'cursor') continue;
        expect(await filters.locator(`[name="${name}"]`).count(), `${operationId}: ${name}`).toBe(1);
      }
    }
    await page.getByLabel('Management requests').check();
    const values: Record<string, string> = {
      action: 'flag.listed',
      from: '2020-01-01T00:00',
      to: '2099-01-01T00:00',
    };
    for (const [name, value] of Object.entries(values)) await filters.locator(`[name="${name}"]`).fill(value);
    const choices: Record<string, string> = {
      result: 'success',
      subject_type: 'project',
      sort: 'created_at_asc',
      per_page: '50',
      kind: 'reads',
      project: 'shop',
      // Actors and tokens are picked by name: the token is both.
      actor_ulid: token.ulid,
      management_token_ulid: token.ulid,
    };
    for (const [name, value] of Object.entries(choices)) await filters.locator(`[name="${name}"]`).selectOption(value);
    // The chosen project's flags, segments and environments are offered as subjects.
    await filters.locator('[name="subject_ulid"] option', { hasText: 'flag flag-01' }).waitFor({ state: 'attached' });
    await filters.locator('[name="subject_ulid"]').selectOption({ label: 'flag flag-01' });
    // The chosen project's environments are offered by key.
    const request = page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname === '/management/v1/audit-logs' && url.searchParams.has('environment_ulid');
    });
    await filters.locator('[name="environment_ulid"] option', { hasText: 'staging' }).waitFor({ state: 'attached' });
    await filters.locator('[name="environment_ulid"]').selectOption({ label: 'staging' });
    const sent = new URL((await request).url()).searchParams;
    for (const name of documentedQueryParameters('listAuditLogs').filter((n) => n !== 'cursor')) expect(sent.has(name), name).toBe(true);
    expect(sent.get('management_token_ulid')).toBe(token.ulid);
    expect(sent.get('kind')).toBe('reads');
    expect(sent.get('environment_ulid')).toMatch(/^env_/);
    expect(sent.get('from')).toBe(new Date('2020-01-01T00:00').toISOString());
    await page.reload();
    await rows().first().waitFor();
  });

  it('opens on changes, with reads one choice away', async () => {
    await page.reload();
    await rows().first().waitFor();
    expect(await page.getByLabel('Show').inputValue()).toBe('changes');
    // The console's own reads (and the token's) are not among the changes.
    // The actions are under each request's Details.
    const shown = async () => (await rows().locator('td:nth-child(3) code').allTextContents()).join(' ');
    await expect.poll(shown).toContain('flag.created');
    expect(await shown()).not.toMatch(/\b(flag|project|audit_log)\.listed\b/);
    await page.getByLabel('Show').selectOption('reads');
    await expect.poll(shown).toMatch(/\baudit_log\.listed\b/);
    expect(await shown()).not.toContain('flag.created');
  });

  it("filters by management token: only that token's requests", async () => {
    await page.getByLabel('Show').selectOption('');
    await page.getByLabel('Management token', { exact: true }).selectOption(token.ulid);
    await expect.poll(() => rows().count()).toBe(3);
    for (const text of await rows().allTextContents()) {
      expect(text).toContain('reporting');
      expect(text).toContain('flag.listed');
    }
    await page.getByLabel('Management token', { exact: true }).selectOption('');
    await expect.poll(() => rows().count()).toBeGreaterThan(3);
  });

  it('shows what a change changed, field by field, and the publish comment', async () => {
    expectOk(await vexil.api('PUT', '/projects/shop/environments/staging', { name: 'Staging', color: '#ff0000', comments_required: true }));
    const draft = await vexil.api('POST', '/projects/shop/flags/flag-01/environments/staging/targets');
    expectOk(
      await vexil.api('PUT', `/projects/shop/flags/flag-01/environments/staging/targets/${draft.body.data.ulid}/publish`, {
        comment: 'Launch day <b>bold</b>',
      }),
    );
    await page.reload();
    const environment = rows().filter({ hasText: 'environment.updated' }).first();
    await environment.getByText(/^Changed: .*color/).click();
    const diff = environment.getByRole('definition').filter({ hasText: '#ff0000' });
    expect(await diff.locator('del').innerText()).toContain('#808080');
    expect(await diff.locator('ins').innerText()).toContain('#ff0000');
    expect(await environment.getByRole('term').allInnerTexts()).toEqual(expect.arrayContaining(['color', 'comments_required']));
    const published = rows().filter({ hasText: 'target.published' }).first();
    await published.getByText('Comment: “Launch day <b>bold</b>”').waitFor();
    expect(await page.locator('b', { hasText: 'bold' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '17-audit-changes');
  });

  it('shows what a publish put live against the previous publish: value, rules and rollout', async () => {
    const targets = '/projects/shop/flags/flag-02/environments/staging/targets';
    const values = (await vexil.api('GET', '/projects/shop/flags/flag-02/values')).body.data as Array<{ ulid: string; display: string }>;
    const [first, second] = values;
    const firstDraft = (await vexil.api('POST', targets)).body.data;
    expectOk(await vexil.api('PUT', `${targets}/${firstDraft.ulid}`, { value_ulid: first?.ulid }));
    expectOk(await vexil.api('PUT', `${targets}/${firstDraft.ulid}/publish`, { comment: 'first' }));
    const secondDraft = (await vexil.api('POST', targets)).body.data;
    expectOk(await vexil.api('PUT', `${targets}/${secondDraft.ulid}`, { value_ulid: second?.ulid }));
    expectOk(
      await vexil.api('POST', `${targets}/${secondDraft.ulid}/rules`, {
        value_ulid: first?.ulid,
        description: 'Pro plan',
        criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }],
      }),
    );
    expectOk(
      await vexil.api('PUT', `${targets}/${secondDraft.ulid}/publish`, {
        comment: 'second',
        rollout_enabled: true,
        rollout_mode: 'manual',
        rollout_percentage: 25,
      }),
    );

    await page.reload();
    const publish = rows().filter({ hasText: 'flag-02/staging' }).filter({ hasText: 'Comment: “second”' });
    await publish.getByText('What went live').click();
    const diff = publish.getByRole('definition');
    await diff.first().waitFor();
    const aspect = (name: string) =>
      publish
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${name}$`) })
        .locator('xpath=following-sibling::dd[1]');
    expect(await aspect('Value').locator('del').innerText()).toContain(first?.display as string);
    expect(await aspect('Value').locator('ins').innerText()).toContain(second?.display as string);
    expect(await aspect('Rules').locator('ins').innerText()).toContain(`If attribute plan equals pro → ${first?.display} (Pro plan)`);
    expect(await aspect('Rules').locator('del').count()).toBe(0);
    expect(await aspect('Rollout').locator('del').innerText()).toContain('none: served to everyone');
    expect(await aspect('Rollout').locator('ins').innerText()).toContain('manual rollout at 25 %');
    // The first publish is told as such.
    const firstPublish = rows().filter({ hasText: 'flag-02/staging' }).filter({ hasText: 'Comment: “first”' });
    await firstPublish.getByText('What went live').click();
    await firstPublish.getByText('The first publish of this flag here').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'audit-publish-diff');
  });

  it('pages through the entries with Next and Previous, by keyboard too', async () => {
    await page.getByLabel('Action').fill('flag.created');
    await page.getByLabel('Order').selectOption('created_at_asc');
    await page.getByLabel('Per page').selectOption('10');
    const subjects = async () =>
      (await rows().locator('.audit-sentence').allInnerTexts()).map((t) => t.replace(/^.* created flag /, '').trim());
    const expected = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `flag-${String(from + i).padStart(2, '0')}`);
    await expect.poll(subjects).toEqual(expected(1, 10));
    const next = page.getByRole('button', { name: 'Next page' });
    const previous = page.getByRole('button', { name: 'Previous page' });
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await expect.poll(subjects).toEqual(expected(11, 20));
    await tabTo(page, next);
    await page.keyboard.press('Enter');
    await expect.poll(subjects).toEqual(expected(21, 30));
    await page.keyboard.press('Enter');
    await expect.poll(subjects).toEqual(expected(31, 35));
    await page.getByText('Page 4').waitFor();
    expect(await next.isDisabled()).toBe(true);
    await previous.click();
    await expect.poll(subjects).toEqual(expected(21, 30));
    await previous.click();
    await previous.click();
    await expect.poll(subjects).toEqual(expected(1, 10));
    expect(await previous.isDisabled()).toBe(true);
    // A new filter starts again at the first page.
    await next.click();
    await page.getByText('Page 2').waitFor();
    await page.getByLabel('Order').selectOption('created_at_desc');
    await page.getByText('Page 1').waitFor();
    await expect.poll(subjects).toEqual(expected(26, 35).reverse());
  });
});
