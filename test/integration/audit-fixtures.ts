/**
 * Set-up helpers of the audit, idempotency, rate-limit and scheduler suites. Rows are inserted
 * directly (as test/support/test-app.ts seeds the owner) so these suites control every detail:
 * token tiers, grants, expiry, key kinds.
 */
import { digestSecret, generateSecret } from '../../src/auth/secrets.js';
import { newId } from '../../src/ids.js';
import type { TestApp } from '../support/test-app.js';

let counter = 0;
/** A key unique within the test run. */
export function uniqueKey(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

export interface SeededProject {
  ulid: string;
  key: string;
  /** Environment ulid by key. */
  environments: Record<string, string>;
}

export async function seedProject(
  app: TestApp,
  key = uniqueKey('prj'),
  environmentKeys: string[] = ['development', 'production'],
): Promise<SeededProject> {
  const now = app.clock.now().toISOString();
  const ulid = newId('project');
  await app.knex('projects').insert({ ulid, key, name: key, description: '', created_at: now, updated_at: now });
  const environments: Record<string, string> = {};
  for (const envKey of environmentKeys) {
    const envUlid = newId('environment');
    environments[envKey] = envUlid;
    await app.knex('environments').insert({
      ulid: envUlid,
      project_ulid: ulid,
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
  return { ulid, key, environments };
}

export interface SeedTokenOptions {
  scopes: string[];
  tier?: 'standard' | 'elevated' | 'unlimited';
  /** Whole projects (ulids). */
  projects?: string[];
  /** Single environments. */
  environments?: Array<{ projectUlid: string; environmentUlid: string }>;
  expiresAt?: string | null;
  revokedAt?: string | null;
  name?: string;
}

export interface SeededToken {
  ulid: string;
  token: string;
  name: string;
}

/** A management token (mgt_) of the seeded owner. */
export async function seedToken(app: TestApp, options: SeedTokenOptions): Promise<SeededToken> {
  const now = app.clock.now().toISOString();
  const token = generateSecret('mgt_');
  const ulid = newId('managementToken');
  const name = options.name ?? uniqueKey('token');
  await app.knex('management_tokens').insert({
    ulid,
    account_ulid: app.ownerUlid,
    name,
    digest: digestSecret(token),
    scopes: JSON.stringify(options.scopes),
    tier: options.tier ?? 'standard',
    expires_at: options.expiresAt ?? null,
    revoked_at: options.revokedAt ?? null,
    created_at: now,
    updated_at: now,
  });
  for (const projectUlid of options.projects ?? []) {
    await app.knex('management_token_grants').insert({ token_ulid: ulid, project_ulid: projectUlid, environment_ulid: null });
  }
  for (const grant of options.environments ?? []) {
    await app.knex('management_token_grants').insert({
      token_ulid: ulid,
      project_ulid: grant.projectUlid,
      environment_ulid: grant.environmentUlid,
    });
  }
  return { ulid, token, name };
}

/** An environment key; the key cache is refreshed so the key works at once. */
export async function seedEnvironmentKey(
  app: TestApp,
  environmentUlid: string,
  kind: 'server' | 'mobile' | 'client' = 'server',
): Promise<{ ulid: string; key: string }> {
  const now = app.clock.now().toISOString();
  const prefix = kind === 'server' ? 'srv_' : kind === 'mobile' ? 'mob_' : 'cli_';
  const key = generateSecret(prefix);
  const ulid = newId('environmentKey');
  await app.knex('environment_keys').insert({
    ulid,
    environment_ulid: environmentUlid,
    kind,
    name: uniqueKey('key'),
    digest: digestSecret(key),
    masked_key: `${key.slice(0, 4)}...${key.slice(-4)}`,
    revoked_at: null,
    created_at: now,
    updated_at: now,
  });
  await app.composition.keyCache.refreshIfChanged();
  return { ulid, key };
}

/** Writes the buffered public audit entries now (instead of waiting for the flush task). */
export async function flushPublicAudit(app: TestApp): Promise<void> {
  await app.composition.publicAudit.flush();
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
