/**
 * Test fixtures for the evaluation and insights suites: projects, environments, keys, flags,
 * values, published targets, rules and segments inserted straight into the database (the shape
 * the management features write), with the environment revisions bumped like they do.
 */
import type { Knex } from 'knex';
import { digestSecret, generateSecret, maskSecret } from '../../src/auth/secrets.js';
import { newId } from '../../src/ids.js';
import type { TestApp } from '../support/test-app.js';

export type FlagType = 'boolean' | 'number' | 'string' | 'json';
export type KeyKind = 'server' | 'mobile' | 'client';

export interface ProjectFixture {
  ulid: string;
  key: string;
}

export interface EnvironmentFixture {
  ulid: string;
  key: string;
  projectUlid: string;
  /** A server key, used by settle() to see the snapshot the server serves. */
  serverKey: string;
}

export interface FlagFixture {
  ulid: string;
  key: string;
  type: FlagType;
  /** Value ulid by display. */
  values: Map<string, string>;
}

export interface CriterionFixture {
  selector: 'attribute' | 'context' | 'segment';
  sub_selector?: string | null;
  comparer: string;
  values?: string[];
}

export interface RuleFixture {
  value: string;
  criteria: CriterionFixture[];
}

export interface PublishOptions {
  value: string;
  rules?: RuleFixture[];
  rollout?: { percentage: number; status?: 'active' | 'paused' | 'completed'; mode?: 'manual' | 'automatic' };
  /** Expire the targets published before (what a publish without a rollout does). */
  expirePrevious?: boolean;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 3000, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const result = await check();
    if (result !== undefined && result !== false) return result;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export class Fixtures {
  constructor(readonly app: TestApp) {}

  get knex(): Knex {
    return this.app.knex;
  }

  private now(): string {
    return this.app.clock.now().toISOString();
  }

  async project(key = unique('prj')): Promise<ProjectFixture> {
    const ulid = newId('project');
    const now = this.now();
    await this.knex('projects').insert({ ulid, key, name: key, description: '', created_at: now, updated_at: now });
    return { ulid, key };
  }

  async environment(project: ProjectFixture, key = unique('env')): Promise<EnvironmentFixture> {
    const ulid = newId('environment');
    const now = this.now();
    await this.knex('environments').insert({
      ulid,
      project_ulid: project.ulid,
      key,
      name: key,
      description: null,
      color: '#123456',
      comments_required: false,
      confirmation_required: false,
      revision: 1,
      created_at: now,
      updated_at: now,
    });
    const env = { ulid, key, projectUlid: project.ulid, serverKey: '' };
    env.serverKey = await this.key(env, 'server');
    return env;
  }

  /** A new project with one environment (`key`) and a mobile and a client key beside its server key. */
  async keyedEnvironment(
    key?: string,
  ): Promise<{ project: ProjectFixture; env: EnvironmentFixture; mobileKey: string; clientKey: string }> {
    const project = await this.project();
    const env = await this.environment(project, key);
    return { project, env, mobileKey: await this.key(env, 'mobile'), clientKey: await this.key(env, 'client') };
  }

  /** A new environment key; returns the secret. */
  async key(environment: { ulid: string }, kind: KeyKind): Promise<string> {
    const prefix = kind === 'server' ? 'srv_' : kind === 'mobile' ? 'mob_' : 'cli_';
    const secret = generateSecret(prefix);
    const now = this.now();
    await this.knex('environment_keys').insert({
      ulid: newId('environmentKey'),
      environment_ulid: environment.ulid,
      kind,
      name: `${kind} key`,
      digest: digestSecret(secret),
      masked_key: maskSecret(secret),
      revoked_at: null,
      created_at: now,
      updated_at: now,
    });
    return secret;
  }

  async revokeKey(secret: string): Promise<void> {
    const now = this.now();
    await this.knex('environment_keys').where('digest', digestSecret(secret)).update({ revoked_at: now, updated_at: now });
  }

  /** A flag with values (displays in stored form); `defaultValue` marks the default. */
  async flag(
    project: ProjectFixture,
    options: {
      key?: string;
      type: FlagType;
      name?: string;
      values?: string[];
      defaultValue?: string | null;
      include_in_mobile?: boolean;
      include_in_client?: boolean;
      permanent?: boolean;
      createdAt?: string;
    },
  ): Promise<FlagFixture> {
    const ulid = newId('flag');
    const key = options.key ?? unique('flag');
    const now = options.createdAt ?? this.now();
    await this.knex('flags').insert({
      ulid,
      project_ulid: project.ulid,
      key,
      name: options.name ?? `Flag ${key}`,
      type: options.type,
      description: null,
      permanent: options.permanent ?? false,
      include_in_mobile: options.include_in_mobile ?? true,
      include_in_client: options.include_in_client ?? true,
      created_at: now,
      updated_at: now,
    });
    const displays = options.values ?? (options.type === 'boolean' ? ['true', 'false'] : []);
    const defaultDisplay = options.defaultValue === undefined ? (options.type === 'boolean' ? 'false' : displays[0]) : options.defaultValue;
    const values = new Map<string, string>();
    for (const display of displays) {
      const valueUlid = newId('flagValue');
      values.set(display, valueUlid);
      await this.knex('flag_values').insert({
        ulid: valueUlid,
        flag_ulid: ulid,
        display,
        display_digest: digestSecret(display),
        is_default: display === defaultDisplay,
        created_at: now,
        updated_at: now,
      });
    }
    await this.bumpProject(project.ulid);
    return { ulid, key, type: options.type, values };
  }

  /** Publishes a target for the flag in the environment (rules and rollout as given). */
  async publish(environment: EnvironmentFixture, flag: FlagFixture, options: PublishOptions): Promise<string> {
    const now = this.now();
    if (options.expirePrevious ?? !options.rollout) {
      await this.knex('targets')
        .where({ flag_ulid: flag.ulid, environment_ulid: environment.ulid, status: 'published' })
        .update({ status: 'expired', updated_at: now });
    }
    const targetUlid = newId('target');
    await this.knex('targets').insert({
      ulid: targetUlid,
      flag_ulid: flag.ulid,
      environment_ulid: environment.ulid,
      value_ulid: this.valueUlid(flag, options.value),
      status: 'published',
      comment: null,
      scheduled_at: null,
      published_at: now,
      rollout_percentage: options.rollout?.percentage ?? null,
      rollout_mode: options.rollout ? (options.rollout.mode ?? 'manual') : null,
      rollout_status: options.rollout ? (options.rollout.status ?? 'active') : null,
      rollout_step_started_at: null,
      created_at: now,
      updated_at: now,
    });
    let position = 1;
    for (const rule of options.rules ?? []) {
      const ruleUlid = newId('rule');
      await this.knex('rules').insert({
        ulid: ruleUlid,
        target_ulid: targetUlid,
        value_ulid: this.valueUlid(flag, rule.value),
        description: `rule ${position}`,
        position: position++,
        created_at: now,
        updated_at: now,
      });
      let criterionPosition = 1;
      for (const c of rule.criteria) {
        await this.knex('criteria').insert({
          ulid: newId('criterion'),
          rule_ulid: ruleUlid,
          selector: c.selector,
          sub_selector: c.sub_selector ?? null,
          comparer: c.comparer,
          position: criterionPosition++,
          values: JSON.stringify(c.values ?? []),
        });
      }
    }
    await this.bump(environment.ulid);
    // Publishes in one millisecond must still order: keep published_at strictly increasing.
    await sleep(2);
    return targetUlid;
  }

  async segment(
    project: ProjectFixture,
    options: { key?: string; included?: string[]; excluded?: string[]; rules?: Array<{ criteria: CriterionFixture[] }> },
  ): Promise<string> {
    const key = options.key ?? unique('seg');
    const now = this.now();
    await this.knex('segments').insert({
      ulid: newId('segment'),
      project_ulid: project.ulid,
      key,
      name: key,
      description: null,
      included: JSON.stringify(options.included ?? []),
      excluded: JSON.stringify(options.excluded ?? []),
      rules: JSON.stringify(
        (options.rules ?? []).map((r) => ({
          criteria: r.criteria.map((c) => ({
            selector: c.selector,
            sub_selector: c.sub_selector ?? null,
            comparer: c.comparer,
            values: c.values ?? [],
          })),
        })),
      ),
      created_at: now,
      updated_at: now,
    });
    await this.bumpProject(project.ulid);
    return key;
  }

  valueUlid(flag: FlagFixture, display: string): string {
    const ulid = flag.values.get(display);
    if (!ulid) throw new Error(`flag ${flag.key} has no value ${display}`);
    return ulid;
  }

  async bump(environmentUlid: string): Promise<void> {
    await this.knex('environments').where('ulid', environmentUlid).increment('revision', 1);
  }

  async bumpProject(projectUlid: string): Promise<void> {
    await this.knex('environments').where('project_ulid', projectUlid).increment('revision', 1);
  }

  async revision(environmentUlid: string): Promise<number> {
    const row = await this.knex('environments').where('ulid', environmentUlid).first('revision');
    return Number(row.revision);
  }

  /** Waits until `app` serves the environment at its current database revision. */
  async settle(environment: EnvironmentFixture, app: TestApp = this.app): Promise<number> {
    const revision = await this.revision(environment.ulid);
    // Behind a trusted proxy (the tests of a low per-address limit), each poll comes from an
    // address of its own: a wait that takes more polls than the limit must not end in 429s.
    const proxied = app.composition.core.config.trustProxy;
    let poll = 0;
    await waitFor(
      async () => {
        const headers = proxied ? { 'x-forwarded-for': `198.51.100.${(poll++ % 254) + 1}, 10.0.0.1` } : undefined;
        const res = await app.request('GET', '/v1/payload', { apiKey: environment.serverKey, headers });
        return res.status === 200 && res.body.data.revision >= revision;
      },
      3000,
      `revision ${revision} of ${environment.key}`,
    );
    return revision;
  }

  /** Writes the buffered telemetry now (the flusher's own interval is one second). */
  async flushTelemetry(app: TestApp = this.app): Promise<void> {
    const flusher = app.composition.tasks.find((t) => t.name === 'telemetry-flusher') as unknown as { flush(): Promise<void> } | undefined;
    if (!flusher) throw new Error('no telemetry flusher task');
    await flusher.flush();
  }
}

/** The context header value for a context. */
export function contextHeader(context: unknown): string {
  return JSON.stringify(context);
}

/** A management token (through POST /management/v1/tokens) with the scopes and grants given. */
export async function managementToken(
  app: TestApp,
  scopes: string[],
  grants?: { projects?: string[]; environments?: Array<{ project: string; environment: string }> },
): Promise<string> {
  const res = await app.mgmt('POST', '/tokens', { name: unique('token'), scopes, tier: 'unlimited', ...(grants ? { grants } : {}) });
  if (res.status !== 200) throw new Error(`token creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token as string;
}
