import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, seriousViolations, startVexil, type RunningVexil } from './harness.js';
import { signedInPage } from './admin-support.js';
import { bannerPath, environmentPanel, seedShop, openEnvironment } from './shop.js';

// Each environment panel of a flag says what is published there and why, without a draft open:
// the base value, the rules in order with their criteria in words, and the rollout.
describe('the console: what each environment serves now', () => {
  let vexil: RunningVexil;
  let browser: Browser;
  let page: Page;
  const flagPath = bannerPath;
  const value: Record<string, string> = {};

  const panel = (name: string) => environmentPanel(page, name);
  const published = (name: string) => panel(name).getByRole('region', { name: `Published in ${name}` });
  const items = (name: string, list: string) => published(name).getByRole('list', { name: list }).getByRole('listitem').allInnerTexts();

  beforeAll(async () => {
    vexil = await startVexil();
    Object.assign(value, await seedShop(vexil));
    browser = await launchBrowser();
    page = await signedInPage(browser, vexil);
  });
  afterAll(async () => {
    await browser?.close();
    await vexil?.stop();
  });

  it('lists the published base value and rules, criteria in words and segments by key, with no draft', async () => {
    const targets = `${flagPath}/environments/staging/targets`;
    const draft = await vexil.ok('POST', targets);
    await vexil.ok('PUT', `${targets}/${draft.ulid}`, { value_ulid: value.Hello });
    await vexil.ok('POST', `${targets}/${draft.ulid}/rules`, {
      value_ulid: value.Sale,
      description: 'Pro plan',
      criteria: [
        { selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: ['pro', 'team'] },
        { selector: 'attribute', sub_selector: 'country', comparer: 'equal', values: ['FR'] },
      ],
    });
    await vexil.ok('POST', `${targets}/${draft.ulid}/rules`, {
      value_ulid: value.Gift,
      description: 'Beta',
      criteria: [{ selector: 'segment', comparer: 'equal', values: ['beta'] }],
    });
    await vexil.ok('PUT', `${targets}/${draft.ulid}/publish`, { comment: 'launch' });

    await page.goto(vexil.baseUrl + flagPath);
    const staging = published('Staging');
    await staging.getByRole('list', { name: 'Published rules in Staging' }).waitFor();
    // No draft is open: the panel offers to start one, and the rules are still listed.
    expect(await panel('Staging').getByRole('button', { name: 'New draft in Staging' }).isVisible()).toBe(true);
    expect(await panel('Staging').getByRole('region', { name: 'Draft in Staging' }).count()).toBe(0);
    expect(await staging.innerText()).toMatch(
      /Published (just now|\d+ (second|minute)s? ago) · “launch”\. Base value, served when no rule matches: Hello/,
    );
    expect(await items('Staging', 'Published rules in Staging')).toEqual([
      'Pro plan: serves Sale when attribute plan is one of pro, team and attribute country equals FR',
      'Beta: serves Gift when segment equals beta',
    ]);
    await staging.getByText('No rollout: every context gets this publish.').waitFor();
    await openEnvironment(page, 'Production');
    await published('Production').getByText("Nothing is published in Production: every context gets the flag's default value.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '20-published-configuration');
    await openEnvironment(page, 'Staging');
  });

  it('during a rollout shows the new publish, its progress, and the previous publish the other contexts get', async () => {
    const staging = panel('Staging');
    await staging.getByRole('button', { name: 'New draft in Staging' }).click();
    const draft = staging.getByRole('region', { name: 'Draft in Staging' });
    await draft.getByLabel('Base value').selectOption({ label: 'Gift' });
    await draft.getByRole('button', { name: 'Remove Beta' }).click();
    await draft.locator('ol.rules > li', { hasText: 'Beta' }).waitFor({ state: 'detached' });
    await staging.getByRole('button', { name: 'Review and publish in Staging…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish in Staging' });
    await dialog.getByLabel('Comment').fill('gift for some');
    await dialog.getByLabel('manual').check();
    await dialog.getByLabel('Percentage').fill('30');
    await dialog.getByRole('button', { name: 'Publish to Staging' }).click();

    const shown = published('Staging');
    await shown.getByText('Rollout: manual, 30%, active').waitFor();
    expect(await shown.innerText()).toMatch(/“gift for some”\. Base value, served when no rule matches: Gift/);
    // The panel's parts load with their own requests: the rules follow the rollout line shortly.
    await expect
      .poll(() => items('Staging', 'Published rules in Staging'), { timeout: 10_000 })
      .toEqual(['Pro plan: serves Sale when attribute plan is one of pro, team and attribute country equals FR']);
    // The previous publish's rules load on their own, beside the new publish's.
    await expect
      .poll(() => items('Staging', 'Rules of the previous publish in Staging'), { timeout: 10_000 })
      .toEqual([
        'Pro plan: serves Sale when attribute plan is one of pro, team and attribute country equals FR',
        'Beta: serves Gift when segment equals beta',
      ]);
    expect(await seriousViolations(page)).toEqual([]);

    await shown.getByRole('button', { name: 'Complete rollout' }).click();
    await shown.getByText('Its manual rollout is complete: every context gets this publish.').waitFor();
    expect(await shown.getByRole('list', { name: 'Rules of the previous publish in Staging' }).count()).toBe(0);
  });

  it('publishes an automatic rollout through the publish dialog and shows its mode, percentage and next step as the API gives them', async () => {
    await openEnvironment(page, 'Production');
    const production = panel('Production');
    await production.getByRole('button', { name: 'New draft in Production' }).click();
    await production.getByRole('region', { name: 'Draft in Production' }).getByLabel('Base value').selectOption({ label: 'Sale' });
    await production.getByRole('button', { name: 'Review and publish in Production…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish in Production' });
    await dialog.getByLabel('automatic').check();
    await dialog.getByRole('button', { name: 'Publish to Production' }).click();

    const shown = published('Production');
    await shown.getByText('Rollout: automatic, 1%, active').waitFor();
    const fromApi = async () =>
      (await vexil.ok('GET', `${flagPath}/environments/production/targets`)).find((t: { status: string }) => t.status === 'published');
    const live = await fromApi();
    expect(live).toMatchObject({ rollout_mode: 'automatic', rollout_percentage: 1, rollout_next_percentage: 5 });
    const next = shown.getByText(/^Next automatic step:/);
    expect(await next.innerText()).toMatch(/^Next automatic step: 5%, in \d+ \w+\.$/);
    expect(await next.locator('time').getAttribute('datetime')).toBe(live.rollout_next_step_at);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, '21-automatic-rollout');

    // Paused, it takes no step; resumed, the next step is one interval after the resume.
    await shown.getByRole('button', { name: 'Pause rollout' }).click();
    await shown.getByText('Paused: no automatic step until the rollout is resumed.').waitFor();
    expect(await next.count()).toBe(0);
    await shown.getByRole('button', { name: 'Resume rollout' }).click();
    await shown.getByText('Rollout: automatic, 1%, active').waitFor();
    const resumed = await fromApi();
    expect(resumed.rollout_next_step_at > live.rollout_next_step_at).toBe(true);
    await expect.poll(() => next.locator('time').getAttribute('datetime')).toBe(resumed.rollout_next_step_at);
  });
});
