/** Benchmark data set up through the management API (specs/management.yaml). */
import { pool } from './util.mjs';

export const COUNTRIES = ['DE', 'FR', 'NL', 'BE', 'AT'];

/**
 * The scenario-1 rules: 5 rules of 3 criteria each (attribute in / endswith / gte). The
 * benchmark context matches the first two criteria of every rule and fails the third, so all 15
 * criteria are evaluated before the rollout decides (the worst case for the rules).
 */
export function scenarioRules(valueUlid) {
  return Array.from({ length: 5 }, (_, i) => ({
    value_ulid: valueUlid,
    description: `rule ${i + 1}`,
    criteria: [
      { selector: 'attribute', sub_selector: 'country', comparer: 'in', values: COUNTRIES },
      { selector: 'attribute', sub_selector: 'email', comparer: 'endswith', values: ['@example.com'] },
      { selector: 'attribute', sub_selector: 'seats', comparer: 'gte', values: [String((i + 1) * 100)] },
    ],
  }));
}

/** The context of scenario 1 (and the other evaluation scenarios). */
export const benchContext = {
  type: 'user',
  identifier: 'user-42',
  attributes: [
    { key: 'country', values: [{ value: 'DE' }] },
    { key: 'email', values: [{ value: 'user-42@example.com' }] },
    { key: 'seats', values: [{ value: '50' }] },
  ],
};

/** The same context in OFREP form. */
export const ofrepContext = { targetingKey: 'user-42', country: 'DE', email: 'user-42@example.com', seats: '50' };

export function flagPath(project, flag) {
  return `/projects/${project}/flags/${flag}`;
}

export function envPath(project, flag, env) {
  return `/projects/${project}/flags/${flag}/environments/${env}`;
}

export async function createProject(api, key, environments = ['production']) {
  return (
    await api.mgmt('POST', '/projects', {
      key,
      name: `Bench ${key}`,
      environments: environments.map((e) => ({ key: e, name: e })),
    })
  ).data;
}

export async function environmentKey(api, project, env, kind = 'server') {
  const res = await api.mgmt('POST', `/projects/${project}/environments/${env}/keys`, { kind, name: `bench ${kind}` });
  return res.data.key;
}

/** Creates a flag; returns { key, values: Map(display -> ulid) }. */
export async function createFlag(api, project, key, type = 'boolean') {
  await api.mgmt('POST', `/projects/${project}/flags`, { key, name: `Flag ${key}`, type });
  const values = new Map();
  if (type === 'boolean') {
    const list = await api.mgmt('GET', `${flagPath(project, key)}/values`);
    for (const v of list.data) values.set(v.display, v.ulid);
  }
  return { key, values };
}

export async function addValue(api, project, flag, display) {
  const res = await api.mgmt('POST', `${flagPath(project, flag.key)}/values`, { display });
  flag.values.set(display, res.data.ulid);
  return res.data.ulid;
}

/** Creates a draft target (copying the published one), sets its value, adds rules, publishes it. */
export async function publishTarget(api, project, flag, env, { value, rules = [], replaceRules = false, publish = {} }) {
  const base = envPath(project, flag.key, env);
  const target = (await api.mgmt('POST', `${base}/targets`)).data;
  const valueUlid = flag.values.get(value);
  if (target.value_ulid !== valueUlid) await api.mgmt('PUT', `${base}/targets/${target.ulid}`, { value_ulid: valueUlid });
  if (replaceRules) {
    const existing = await api.mgmt('GET', `${base}/targets/${target.ulid}/rules`);
    for (const r of existing.data) await api.mgmt('DELETE', `${base}/targets/${target.ulid}/rules/${r.ulid}`);
  }
  for (const rule of rules) await api.mgmt('POST', `${base}/targets/${target.ulid}/rules`, rule);
  await api.mgmt('PUT', `${base}/targets/${target.ulid}/publish`, publish);
  return target.ulid;
}

/**
 * The scenario-1 flag: a boolean flag whose previous published target serves false and whose
 * newest published target serves true, both with the 5 rules of 3 criteria, the newest under
 * an active 50 % rollout.
 */
export async function scenarioOneFlag(api, project, env, key) {
  const flag = await createFlag(api, project, key, 'boolean');
  await publishTarget(api, project, flag, env, { value: 'false', rules: scenarioRules(flag.values.get('false')) });
  // The new draft copies the published rules; their value becomes true with the target's.
  await publishTarget(api, project, flag, env, {
    value: 'true',
    rules: scenarioRules(flag.values.get('true')),
    replaceRules: true,
    publish: { rollout_enabled: true, rollout_mode: 'manual', rollout_percentage: 50 },
  });
  return flag;
}

/**
 * `count` boolean flags, each with a published target serving true and one rule (country equal
 * NL -> false), in every environment given. Created `concurrency` at a time.
 */
export async function manyFlags(api, project, envs, prefix, count, concurrency = 6) {
  const keys = Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(5, '0')}`);
  await pool(keys, concurrency, async (key) => {
    const flag = await createFlag(api, project, key, 'boolean');
    for (const env of envs) {
      await publishTarget(api, project, flag, env, {
        value: 'true',
        rules: [
          {
            value_ulid: flag.values.get('false'),
            description: 'Netherlands off',
            criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'equal', values: ['NL'] }],
          },
        ],
      });
    }
  });
  return keys;
}

/** Waits until the public API serves the environment's payload (any revision) with `predicate` true. */
export async function waitForPublic(api, apiKey, path, predicate, timeoutMs = 15_000, headers = {}) {
  const started = Date.now();
  for (;;) {
    const res = await api.request('GET', path, { apiKey, headers });
    if (predicate(res)) return res;
    if (Date.now() - started > timeoutMs) return res;
    await new Promise((r) => setTimeout(r, 25));
  }
}
