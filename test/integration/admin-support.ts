/**
 * Helpers of the administration and authentication suites (admin-*.test.ts, auth-*.test.ts):
 * tokens and accounts are created through the management API, as a user would.
 */
import { expect } from 'vitest';
import type { TestDatabase } from '../support/databases.js';
import { parseExposition, sampleValue } from '../support/prometheus.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let counter = 0;
/** A key unique within the test run. */
export function uniqueKey(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** Tables whose rows a refused request must leave alone (the audit tables are written for refusals too). */
export const domainTables = [
  'accounts',
  'projects',
  'account_projects',
  'personal_access_tokens',
  'management_tokens',
  'environments',
  'management_token_grants',
  'environment_keys',
  'flags',
  'flag_values',
  'targets',
  'rules',
  'criteria',
  'segments',
  'criterion_segments',
  'webhooks',
] as const;

/** Row count and newest update of every domain table: equal snapshots mean nothing was written. */
export async function snapshotTables(app: TestApp): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of domainTables) {
    const hasUpdatedAt = !['account_projects', 'management_token_grants', 'criteria', 'criterion_segments'].includes(table);
    const query = app.knex(table).count({ n: '*' });
    if (hasUpdatedAt) query.max({ m: 'updated_at' });
    const row = (await query.first()) as { n: number | string; m?: string | null };
    out[table] = `${Number(row.n)}|${row.m ?? ''}`;
  }
  return out;
}

/** Runs `refused` and asserts that no domain table changed. */
export async function expectNoWrites<T>(app: TestApp, refused: () => Promise<T>): Promise<T> {
  const before = await snapshotTables(app);
  const result = await refused();
  expect(await snapshotTables(app)).toEqual(before);
  return result;
}

export interface CreatedToken {
  ulid: string;
  token: string;
}

/** A management token made by the owner through POST /tokens. */
export async function createManagementToken(
  app: TestApp,
  scopes: string[],
  extra: { grants?: unknown; tier?: string; expires_at?: string | null; name?: string } = {},
  ownerToken = app.ownerToken,
): Promise<CreatedToken> {
  const res = await app.request('POST', '/management/v1/tokens', {
    token: ownerToken,
    body: { name: extra.name ?? `token ${uniqueKey('t')}`, scopes, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ulid: res.body.data.ulid, token: res.body.data.token };
}

export interface CreatedAccount {
  ulid: string;
  email: string;
  token: string;
  tokenUlid: string;
}

/** An account with one personal access token, made by the owner through the API. */
export async function createAccountWithToken(
  app: TestApp,
  role: 'owner' | 'admin' | 'member',
  projects?: string[],
  ownerToken = app.ownerToken,
): Promise<CreatedAccount> {
  const email = `${uniqueKey(role)}@example.test`;
  const account = await app.request('POST', '/management/v1/accounts', {
    token: ownerToken,
    body: { name: `The ${role}`, email, role, ...(projects ? { projects } : {}) },
  });
  expect(account.status, JSON.stringify(account.body)).toBe(200);
  const pat = await app.request('POST', `/management/v1/accounts/${account.body.data.ulid}/tokens`, {
    token: ownerToken,
    body: { name: 'laptop' },
  });
  expect(pat.status, JSON.stringify(pat.body)).toBe(200);
  return { ulid: account.body.data.ulid, email, token: pat.body.data.token, tokenUlid: pat.body.data.ulid };
}

export interface CreatedProject {
  ulid: string;
  key: string;
}

/** A project (with the default environments unless given) made by the owner. */
export async function createProject(
  app: TestApp,
  key = uniqueKey('prj'),
  environments?: Array<{ key: string; name: string }>,
): Promise<CreatedProject> {
  const res = await app.mgmt('POST', '/projects', { key, name: `Project ${key}`, ...(environments ? { environments } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ulid: res.body.data.ulid, key };
}

/** The start of the account and token suites: an app on the suite's database with two projects. */
export async function startWithTwoProjects(
  db: TestDatabase,
  billingEnvironments?: Array<{ key: string; name: string }>,
): Promise<{ app: TestApp; shop: CreatedProject; billing: CreatedProject }> {
  const app = await startTestApp(db);
  try {
    return { app, shop: await createProject(app), billing: await createProject(app, undefined, billingEnvironments) };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** An environment key made by the owner; returns the secret too. */
export async function createEnvironmentKey(
  app: TestApp,
  projectKey: string,
  environmentKey: string,
  kind: 'server' | 'mobile' | 'client' = 'server',
): Promise<{ ulid: string; key: string }> {
  const res = await app.mgmt('POST', `/projects/${projectKey}/environments/${environmentKey}/keys`, { kind });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ulid: res.body.data.ulid, key: res.body.data.key };
}

/** The newest audit entry. */
export async function lastAuditEntry(app: TestApp): Promise<Record<string, unknown>> {
  // The entry of a refused request is written after its response: give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 20));
  // When the SQLite write lock was busy at that moment (a checkpoint or an append of the
  // server's worker thread), the entry went to the backlog, written within its next second.
  for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
    const metrics = parseExposition((await app.request('GET', '/metrics')).body as string);
    if (sampleValue(metrics, 'vexil_buffer_entries', { buffer: 'management_audit' }) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (await app.knex('audit_entries').orderBy('ulid', 'desc').first()) as Record<string, unknown>;
}

/** Pages through a list, returning every item (following next_cursor). */
export async function collectAll(app: TestApp, path: string, token = app.ownerToken, perPage = 2): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1000; guard++) {
    const query: string = `per_page=${perPage}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const res = await app.request('GET', `/management/v1${path}?${query}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.data);
    cursor = res.body.meta.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('pagination did not end');
}
