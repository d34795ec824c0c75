/**
 * Set-up helpers for the flag and flag value suites. Projects, environments and management
 * tokens go through the management API when its administration operations are built, and are
 * inserted directly (as test/support/test-app.ts seeds the owner) until then.
 */
import { expect } from 'vitest';
import { digestSecret, generateSecret } from '../../src/auth/secrets.js';
import { newId } from '../../src/ids.js';
import type { TestApp } from '../support/test-app.js';

export interface SeededProject {
  ulid: string;
  key: string;
  /** Environment ulid by key. */
  environments: Record<string, string>;
}

let counter = 0;
/** A key unique within the test run. */
export function uniqueKey(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export async function createProject(
  app: TestApp,
  key = uniqueKey('prj'),
  environmentKeys: string[] = ['development', 'production'],
): Promise<SeededProject> {
  if (app.composition.managementHandlers.createProject) {
    const res = await app.mgmt('POST', '/projects', {
      key,
      name: key,
      environments: environmentKeys.map((k) => ({ key: k, name: k })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  } else {
    const now = app.clock.now().toISOString();
    await app.knex('projects').insert({ ulid: newId('project'), key, name: key, description: '', created_at: now, updated_at: now });
    const project = await app.knex('projects').where('key', key).first('ulid');
    for (const envKey of environmentKeys) {
      await app.knex('environments').insert({
        ulid: newId('environment'),
        project_ulid: project.ulid,
        key: envKey,
        name: envKey,
        description: null,
        color: '#336699',
        comments_required: false,
        confirmation_required: false,
        revision: 1,
        created_at: now,
        updated_at: now,
      });
    }
  }
  const project = await app.knex('projects').where('key', key).first('ulid');
  const envs: Array<{ ulid: string; key: string }> = await app
    .knex('environments')
    .where('project_ulid', project.ulid)
    .select('ulid', 'key');
  return { ulid: project.ulid, key, environments: Object.fromEntries(envs.map((e) => [e.key, e.ulid])) };
}

export interface TokenGrants {
  projects?: SeededProject[];
  environments?: Array<{ project: SeededProject; environment: string }>;
}

/** A management token (mgt_) of the owner with these scopes and grants; returns the secret. */
export async function createManagementToken(app: TestApp, scopes: string[], grants: TokenGrants = {}): Promise<string> {
  if (app.composition.managementHandlers.createManagementToken) {
    const res = await app.mgmt('POST', '/tokens', {
      name: uniqueKey('token'),
      scopes,
      tier: 'unlimited',
      grants: {
        projects: (grants.projects ?? []).map((p) => p.key),
        environments: (grants.environments ?? []).map((g) => ({ project: g.project.key, environment: g.environment })),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.token as string;
  }
  const token = generateSecret('mgt_');
  const ulid = newId('managementToken');
  const now = app.clock.now().toISOString();
  await app.knex('management_tokens').insert({
    ulid,
    account_ulid: app.ownerUlid,
    name: uniqueKey('token'),
    digest: digestSecret(token),
    scopes: JSON.stringify(scopes),
    tier: 'unlimited',
    created_at: now,
    updated_at: now,
  });
  for (const project of grants.projects ?? []) {
    await app.knex('management_token_grants').insert({ token_ulid: ulid, project_ulid: project.ulid, environment_ulid: null });
  }
  for (const g of grants.environments ?? []) {
    const environment = g.project.environments[g.environment];
    await app.knex('management_token_grants').insert({ token_ulid: ulid, project_ulid: g.project.ulid, environment_ulid: environment });
  }
  return token;
}

/** Revision of every environment of the project, by environment key. */
export async function revisions(app: TestApp, project: SeededProject): Promise<Record<string, number>> {
  const rows: Array<{ key: string; revision: number | string }> = await app
    .knex('environments')
    .where('project_ulid', project.ulid)
    .select('key', 'revision');
  return Object.fromEntries(rows.map((r) => [r.key, Number(r.revision)]));
}

/** Revisions after one more bump of each environment. */
export function bumped(before: Record<string, number>, by = 1): Record<string, number> {
  return Object.fromEntries(Object.entries(before).map(([k, v]) => [k, v + by]));
}

/** Audit entries written since `sinceUlid` (exclusive), oldest first. */
export async function auditEntriesSince(app: TestApp, sinceUlid: string): Promise<Array<Record<string, unknown>>> {
  return app.knex('audit_entries').where('ulid', '>', sinceUlid).orderBy('ulid');
}

/** The newest audit entry's ulid (or a ulid before every entry). */
export async function lastAuditUlid(app: TestApp): Promise<string> {
  const row = await app.knex('audit_entries').orderBy('ulid', 'desc').first('ulid');
  return row?.ulid ?? 'aud_';
}

/** The one audit entry of the request made since `sinceUlid` (written before the response ends). */
export async function auditEntryAfter(app: TestApp, sinceUlid: string): Promise<Record<string, unknown>> {
  const entries = await auditEntriesSince(app, sinceUlid);
  expect(entries).toHaveLength(1);
  return entries[0] as Record<string, unknown>;
}

/** Everything a refused request must leave untouched. */
export async function snapshot(app: TestApp): Promise<unknown> {
  const tables = ['flags', 'flag_values', 'targets', 'rules', 'criteria', 'environments'];
  const out: Record<string, unknown> = {};
  for (const table of tables) out[table] = await app.knex(table).orderBy('ulid').select();
  return out;
}

/** A target row pointing at a value (the targets feature's own API is not needed for these suites). */
export async function insertTarget(
  app: TestApp,
  flagUlid: string,
  environmentUlid: string,
  valueUlid: string,
  status: 'draft' | 'scheduled' | 'published' | 'expired',
): Promise<string> {
  const ulid = newId('target');
  const now = app.clock.now().toISOString();
  await app.knex('targets').insert({
    ulid,
    flag_ulid: flagUlid,
    environment_ulid: environmentUlid,
    value_ulid: valueUlid,
    status,
    comment: null,
    scheduled_at: status === 'scheduled' ? new Date(Date.now() + 86_400_000).toISOString() : null,
    published_at: status === 'published' || status === 'expired' ? now : null,
    created_at: now,
    updated_at: now,
  });
  return ulid;
}

/** A rule (with one criterion) of a target, serving a value. */
export async function insertRule(app: TestApp, targetUlid: string, valueUlid: string): Promise<string> {
  const ulid = newId('rule');
  const now = app.clock.now().toISOString();
  await app
    .knex('rules')
    .insert({ ulid, target_ulid: targetUlid, value_ulid: valueUlid, description: 'r', position: 0, created_at: now, updated_at: now });
  await app.knex('criteria').insert({
    ulid: newId('criterion'),
    rule_ulid: ulid,
    selector: 'attribute',
    sub_selector: 'country',
    comparer: 'equal',
    position: 0,
    values: JSON.stringify(['NL']),
  });
  return ulid;
}
