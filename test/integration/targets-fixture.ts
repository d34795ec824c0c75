import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.js';

/** A project with environments and a boolean flag, created through the management API. */
export interface Fixture {
  project: string;
  flag: string;
  flagUlid: string;
  env: string;
  envUlid: string;
  otherEnv: string;
  otherEnvUlid: string;
  /** Path of the flag in the environment: /projects/{p}/flags/{f}/environments/{e} */
  base: string;
  /** Value ulids of the boolean flag. */
  trueValue: string;
  falseValue: string;
}

let counter = 0;

export function uniqueKey(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export async function createFixture(app: TestApp, options: { flagType?: 'boolean' | 'string' } = {}): Promise<Fixture> {
  const project = uniqueKey('p');
  const created = await app.mgmt('POST', '/projects', {
    key: project,
    name: 'Targets test',
    environments: [
      { key: 'production', name: 'Production' },
      { key: 'staging', name: 'Staging' },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const flag = uniqueKey('f');
  const flagRes = await app.mgmt('POST', `/projects/${project}/flags`, { key: flag, name: 'Flag', type: options.flagType ?? 'boolean' });
  expect(flagRes.status, JSON.stringify(flagRes.body)).toBe(200);
  const envs = await app.mgmt('GET', `/projects/${project}/environments`);
  expect(envs.status).toBe(200);
  const byKey = new Map<string, string>(envs.body.data.map((e: { key: string; ulid: string }) => [e.key, e.ulid]));
  const values = await app.mgmt('GET', `/projects/${project}/flags/${flag}/values`);
  expect(values.status).toBe(200);
  const valueOf = (display: string) => values.body.data.find((v: { display: string }) => v.display === display)?.ulid ?? '';
  return {
    project,
    flag,
    flagUlid: flagRes.body.data.ulid,
    env: 'production',
    envUlid: byKey.get('production') as string,
    otherEnv: 'staging',
    otherEnvUlid: byKey.get('staging') as string,
    base: `/projects/${project}/flags/${flag}/environments/production`,
    trueValue: valueOf('true'),
    falseValue: valueOf('false'),
  };
}

/** Sets the environment's publishing requirements through updateEnvironment. */
export async function setEnvironment(
  app: TestApp,
  fx: Fixture,
  settings: { comments_required?: boolean; confirmation_required?: boolean },
): Promise<void> {
  const res = await app.mgmt('PUT', `/projects/${fx.project}/environments/${fx.env}`, { name: 'Production', ...settings });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Every target row of the flag (all environments), every rule row of them, and the revisions. */
export async function snapshot(app: TestApp, fx: Fixture) {
  const targets = await app.knex('targets').where('flag_ulid', fx.flagUlid).orderBy('ulid').select('*');
  const rules = await app
    .knex('rules')
    .whereIn(
      'target_ulid',
      targets.map((t: { ulid: string }) => t.ulid),
    )
    .orderBy('ulid')
    .select('*');
  const revisions = await app
    .knex('environments')
    .whereIn('ulid', [fx.envUlid, fx.otherEnvUlid])
    .orderBy('ulid')
    .select('ulid', 'revision');
  return { targets, rules, revisions: revisions.map((r: { ulid: string; revision: unknown }) => [r.ulid, Number(r.revision)]) };
}

export async function revision(app: TestApp, envUlid: string): Promise<number> {
  const row = await app.knex('environments').where('ulid', envUlid).first('revision');
  return Number(row.revision);
}

/** Status of each target of the flag in the fixture's environment, keyed by ulid. */
export async function statuses(app: TestApp, fx: Fixture): Promise<Record<string, string>> {
  const rows = await app.knex('targets').where({ flag_ulid: fx.flagUlid, environment_ulid: fx.envUlid }).select('ulid', 'status');
  return Object.fromEntries(rows.map((r: { ulid: string; status: string }) => [r.ulid, r.status]));
}
