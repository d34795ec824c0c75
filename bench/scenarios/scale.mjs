/**
 * Scenario 8: 10,000 flags in each of 3 environments. A fresh server; the project, its
 * environments, keys and the scenario-1 flag are created through the management API, the
 * 10,000 flags (each with a published target and one rule in every environment) are inserted
 * straight into the database in the shape the management features write, then the revisions
 * are bumped so the server loads them. Measured: peak RSS of the server, scenario 1 against the
 * big environment, and how soon a change made through the management API is served.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Api } from '../lib/api.mjs';
import { batchInsert, openKnex } from '../lib/db.mjs';
import { runLoad } from '../lib/load.mjs';
import { createProject, environmentKey, publishTarget, scenarioOneFlag, waitForPublic } from '../lib/setup.mjs';
import { DIST, NotAvailable, median, settings, sleep } from '../lib/util.mjs';
import { SCENARIO_FLAG, contextHeaders, scenarioOneRequest } from './evaluation.mjs';

const PROJECT = 'bench-scale';
const ENVS = ['production', 'staging', 'development'];
const digest = (s) => createHash('sha256').update(s, 'utf8').digest('hex');

export async function seedFlags(vexil, count) {
  const { newId } = await import(pathToFileURL(path.join(DIST, 'src', 'ids.js')).href);
  const knex = openKnex(vexil.database);
  const dialect = vexil.database.dialect;
  try {
    const project = await knex('projects').where('key', PROJECT).first('ulid');
    const envs = await knex('environments').where('project_ulid', project.ulid).select('ulid', 'key');
    const now = new Date().toISOString();
    const flags = [];
    const values = [];
    const targets = [];
    const rules = [];
    const criteria = [];
    for (let i = 0; i < count; i++) {
      const flagUlid = newId('flag');
      const key = `scale-${String(i).padStart(5, '0')}`;
      flags.push({
        ulid: flagUlid,
        project_ulid: project.ulid,
        key,
        name: `Scale flag ${i}`,
        type: 'boolean',
        description: null,
        permanent: false,
        include_in_mobile: true,
        include_in_client: true,
        created_at: now,
        updated_at: now,
      });
      const on = newId('flagValue');
      const off = newId('flagValue');
      values.push(
        {
          ulid: on,
          flag_ulid: flagUlid,
          display: 'true',
          display_digest: digest('true'),
          is_default: false,
          created_at: now,
          updated_at: now,
        },
        {
          ulid: off,
          flag_ulid: flagUlid,
          display: 'false',
          display_digest: digest('false'),
          is_default: true,
          created_at: now,
          updated_at: now,
        },
      );
      for (const env of envs) {
        const targetUlid = newId('target');
        targets.push({
          ulid: targetUlid,
          flag_ulid: flagUlid,
          environment_ulid: env.ulid,
          value_ulid: on,
          status: 'published',
          comment: null,
          scheduled_at: null,
          published_at: now,
          rollout_percentage: null,
          rollout_mode: null,
          rollout_status: null,
          rollout_step_started_at: null,
          created_at: now,
          updated_at: now,
        });
        const ruleUlid = newId('rule');
        rules.push({
          ulid: ruleUlid,
          target_ulid: targetUlid,
          value_ulid: off,
          description: 'Netherlands off',
          position: 1,
          created_at: now,
          updated_at: now,
        });
        criteria.push({
          ulid: newId('criterion'),
          rule_ulid: ruleUlid,
          selector: 'attribute',
          sub_selector: 'country',
          comparer: 'equal',
          position: 1,
          values: JSON.stringify(['NL']),
        });
      }
    }
    for (const [table, rows] of [
      ['flags', flags],
      ['flag_values', values],
      ['targets', targets],
      ['rules', rules],
      ['criteria', criteria],
    ]) {
      await batchInsert(knex, dialect, table, rows);
    }
    await knex('environments').where('project_ulid', project.ulid).increment('revision', 1);
    return { environments: envs, rows: flags.length + values.length + targets.length + rules.length + criteria.length };
  } finally {
    await knex.destroy();
  }
}

/**
 * In-process cost of a full snapshot rebuild (load from the database + compile) and of the
 * incremental rebuild after the last change (its flags reloaded and applied), when the modules exist.
 */
export async function rebuildCost(vexil, environmentUlid) {
  let loader;
  let cache;
  try {
    loader = await import(pathToFileURL(path.join(DIST, 'src', 'runtime', 'config-loader.js')).href);
    cache = await import(pathToFileURL(path.join(DIST, 'src', 'runtime', 'snapshot-cache.js')).href);
  } catch {
    return undefined;
  }
  if (typeof loader.loadEnvironmentConfig !== 'function' || typeof cache.buildEnvironmentSnapshot !== 'function') return undefined;
  const knex = openKnex(vexil.database);
  try {
    const loads = [];
    const builds = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const loaded = await loader.loadEnvironmentConfig(knex, environmentUlid);
      const t1 = performance.now();
      cache.buildEnvironmentSnapshot(loaded);
      const t2 = performance.now();
      loads.push(t1 - t0);
      builds.push(t2 - t1);
    }
    // What a rebuild after one change costs: the flags of the last revision reloaded and applied.
    let incrementalMs;
    const snapshots = await import(pathToFileURL(path.join(DIST, 'src', 'runtime', 'environment-snapshot.js')).href).catch(() => ({}));
    if (typeof loader.loadChangesSince === 'function' && typeof snapshots.applyFlagChanges === 'function') {
      const entry = cache.buildEnvironmentSnapshot(await loader.loadEnvironmentConfig(knex, environmentUlid));
      const times = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const changes = await loader.loadChangesSince(knex, environmentUlid, entry.revision - 1);
        if (changes?.kind !== 'flags') break;
        snapshots.applyFlagChanges(entry, changes);
        times.push(performance.now() - t0);
      }
      if (times.length > 0) incrementalMs = median(times);
    }
    return { loadMs: median(loads), compileMs: median(builds), incrementalMs };
  } finally {
    await knex.destroy();
  }
}

/**
 * Publishes a change to one flag through the management API and measures how long after the
 * publish response the public API serves the new value (polled every 2 ms). Repeated `times`.
 */
async function changeVisibility(api, apiKey, times) {
  const key = 'scale-00000';
  const values = new Map();
  for (const v of (await api.mgmt('GET', `/projects/${PROJECT}/flags/${key}/values`)).data) values.set(v.display, v.ulid);
  const flag = { key, values };
  const path = `/v1/flags/${key}`;
  const current = async () => {
    const r = await api.request('GET', path, { apiKey, headers: contextHeaders });
    return r.status === 200 ? r.body.data.flag.value.boolean : undefined;
  };
  const samples = [];
  let value = await current();
  if (value === undefined) throw new NotAvailable(`GET ${path} did not answer 200`);
  for (let i = 0; i < times; i++) {
    const next = !value;
    const publishStarted = performance.now();
    await publishTarget(api, PROJECT, flag, 'production', { value: String(next) });
    const published = performance.now();
    let seen;
    for (;;) {
      seen = await current();
      if (seen === next) break;
      if (performance.now() - published > 10_000) throw new NotAvailable('a published change was not served within 10 s');
      await sleep(2);
    }
    samples.push({ afterPublishMs: performance.now() - published, publishMs: published - publishStarted });
    value = next;
    await sleep(300);
  }
  return samples;
}

export async function scaleScenario(vexil, log) {
  const api = new Api(vexil.baseUrl, vexil.ownerToken);
  await createProject(api, PROJECT, ENVS);
  const keys = {};
  for (const env of ENVS) keys[env] = await environmentKey(api, PROJECT, env, 'server');
  await scenarioOneFlag(api, PROJECT, 'production', SCENARIO_FLAG);
  const t0 = Date.now();
  const seeded = await seedFlags(vexil, settings.scaleFlags);
  log(
    `  seeded ${settings.scaleFlags} flags x ${ENVS.length} environments (${seeded.rows} rows) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const t1 = Date.now();
  for (const env of ENVS) {
    const res = await waitForPublic(
      api,
      keys[env],
      `/v1/flags/scale-${String(settings.scaleFlags - 1).padStart(5, '0')}`,
      (r) => r.status === 200,
      120_000,
      contextHeaders,
    );
    if (res.status !== 200) throw new NotAvailable(`environment ${env} did not serve the seeded flags (${res.status})`);
  }
  const loadedAfter = (Date.now() - t1) / 1000;
  log(`  all ${ENVS.length} environments served after ${loadedAfter.toFixed(1)} s`);
  await sleep(1000);
  const afterLoad = vexil.memory();

  const request = scenarioOneRequest(keys.production);
  const pre = await api.request('GET', request.path, { headers: request.headers });
  if (pre.status !== 200) throw new NotAvailable(`GET ${request.path} -> ${pre.status}`);
  log(`    vexil scenario 1 with ${settings.scaleFlags + 1} flags in the environment ...`);
  const load = await runLoad({ serverPid: vexil.pid, url: vexil.baseUrl + request.path, headers: request.headers });

  const visibility = await changeVisibility(api, keys.production, 5);
  const envUlid = seeded.environments.find((e) => e.key === 'production').ulid;
  const cost = await rebuildCost(vexil, envUlid);
  const end = vexil.memory();
  return { afterLoad, end, load, visibility, cost, loadedAfter };
}
