import type { Locator, Page } from 'playwright-core';
import type { RunningVexil } from './harness.js';

/** The flag most console tests work on. */
export const bannerPath = '/projects/shop/flags/banner';

/**
 * The shop the flag-page tests start from, made through the management API: project `shop`
 * with staging and production, the string flag `banner` with `values` (the first is its
 * default), and, unless told otherwise, the segment `beta` (u-beta). Returns the values' ulids
 * by display.
 */
export async function seedShop(
  vexil: RunningVexil,
  { values = ['Hello', 'Sale', 'Gift'], segment = true } = {},
): Promise<Record<string, string>> {
  await vexil.ok('POST', '/projects', {
    key: 'shop',
    name: 'Shop',
    environments: [
      { key: 'staging', name: 'Staging' },
      { key: 'production', name: 'Production' },
    ],
  });
  await vexil.ok('POST', '/projects/shop/flags', { key: 'banner', name: 'Banner', type: 'string' });
  const ulids: Record<string, string> = {};
  for (const display of values) ulids[display] = (await vexil.ok('POST', `${bannerPath}/values`, { display })).ulid;
  if (segment) await vexil.ok('POST', '/projects/shop/segments', { key: 'beta', name: 'Beta testers', included: ['u-beta'] });
  return ulids;
}

/** Publishes, in staging, `banner` serving Sale to the beta segment (and its default to everyone else). */
export async function publishBetaSale(vexil: RunningVexil, value: Record<string, string>): Promise<void> {
  const targets = `${bannerPath}/environments/staging/targets`;
  const draft = await vexil.ok('POST', targets);
  await vexil.ok('POST', `${targets}/${draft.ulid}/rules`, {
    value_ulid: value.Sale,
    description: 'Beta',
    criteria: [{ selector: 'segment', comparer: 'equal', values: ['beta'] }],
  });
  await vexil.ok('PUT', `${targets}/${draft.ulid}/publish`, { comment: 'beta gets the sale' });
}

/** A flag page's panel of one environment, found by its heading (the environment's name). */
export function environmentPanel(page: Page, name: string): Locator {
  return page.locator('article.environment', { has: page.getByRole('heading', { name, exact: true }) });
}

/** Opens an environment's tab on a flag page (one environment's panel is shown at a time). */
export async function openEnvironment(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
}
