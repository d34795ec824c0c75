/**
 * The property behind the kill switch and restore, over generated flag configurations (every value
 * type; rules, splits on base and rules, rollouts in progress, prerequisites and chains of them,
 * segments), checked for a sample of 1,000 contexts through /v1/flags, the server-key payload
 * evaluated locally with the engine the SDK uses, the client payload and OFREP:
 * - after `switch {"on": false}` every context gets the off value;
 * - after `switch {"on": true}` every context gets what it got before the switch went off;
 * - after `restore` of an earlier publish every context gets what it got while it was live; a
 *   publish made with a rollout in progress is restored without it (README: its base value and
 *   rules), so every context gets what that publish serves in full;
 * - none answers 5xx, and each writes one audit entry and one webhook event.
 * A seeded generator keeps runs repeatable (the seed is in the test's name).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileSnapshot, evaluateFlag, type EnvironmentConfig } from '../../src/engine/index.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { noDelivery } from './webhook-fixtures.js';

const SEED = 36;
const CONFIGURATIONS = 2;
const FLAGS_PER_CONFIGURATION = 6;
const CONTEXTS = 1000;
/**
 * Contexts also evaluated over HTTP where the property does not name the channels (before the
 * switch, after switching on and after restoring): after switching off, all of them are.
 */
const OVER_HTTP_SAMPLE = 100;
/** Requests in flight at once per channel. */
const PARALLEL = 24;

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type FlagType = 'boolean' | 'string' | 'number' | 'json';
const displays: Record<FlagType, string[]> = {
  boolean: ['true', 'false'],
  string: ['red', 'green', 'blue'],
  number: ['1', '2.5', '-3'],
  json: ['{"a":1}', '{"a":2}', '{"b":[true]}'],
};
const plans = ['free', 'pro', 'team'];
const countries = ['fr', 'de', 'jp', 'us'];

interface Generated {
  file: any;
  /** The second publish of every flag (what serves when the property is checked). */
  second: any;
}

/** A project of flags whose servings use every construct, in two publishes per flag. */
function generate(random: () => number, projectKey: string): Generated {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const types: FlagType[] = ['boolean', 'string', 'number', 'json'];
  const flags = Array.from({ length: FLAGS_PER_CONFIGURATION }, (_, i) => {
    const type = i < types.length ? (types[i] as FlagType) : pick(types);
    const values = displays[type];
    const defaultValue = pick(values);
    return { key: `f${i}`, type, values, defaultValue };
  });
  const split = (values: string[]) => {
    const chosen = values.filter(() => chance(0.8));
    const shares = (chosen.length >= 2 ? chosen : values.slice(0, 2)).map((value) => ({ value, weight: 0 }));
    let left = 100000;
    shares.forEach((share, index) => {
      share.weight = index === shares.length - 1 ? left : Math.floor(left * (0.2 + random() * 0.6));
      left -= share.weight;
    });
    return { shares };
  };
  const serving = (index: number, withRollout: boolean) => {
    const flag = flags[index]!;
    const rules = Array.from({ length: Math.floor(random() * 3) }, (_, r) => ({
      description: `rule ${r}`,
      value: pick(flag.values),
      criteria: chance(0.5)
        ? [{ selector: 'segment', comparer: 'in', values: ['beta'] }]
        : [{ selector: 'attribute', sub_selector: 'plan', comparer: 'in', values: [pick(plans)] }],
      ...(chance(0.4) ? { split: split(flag.values) } : {}),
    }));
    // A chain: each flag may require the one before it.
    const required = index > 0 && chance(0.5) ? flags[index - 1]! : undefined;
    return {
      value: pick(flag.values),
      ...(chance(0.5) ? { split: split(flag.values) } : {}),
      rules,
      ...(required ? { prerequisites: [{ flag: required.key, values: [pick(required.values)] }] } : {}),
      rollout: withRollout && chance(0.5) ? { mode: 'manual', percentage: 10 + Math.floor(random() * 80), status: 'active' } : null,
    };
  };
  // One segment for both publishes: restore brings back a flag's serving, not the segments.
  const segmentCountry = pick(countries);
  const fileWith = (servings: any[]) => ({
    version: 1,
    project: { key: projectKey, name: 'Property', description: '' },
    environments: [
      {
        key: 'production',
        name: 'Production',
        description: null,
        color: '#d93025',
        comments_required: false,
        confirmation_required: false,
      },
    ],
    segments: [
      {
        key: 'beta',
        name: 'Beta',
        description: null,
        included: ['u1', 'u7', 'u42'],
        excluded: ['u3'],
        rules: [{ criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'in', values: [segmentCountry] }] }],
      },
    ],
    flags: flags.map((flag, i) => ({
      key: flag.key,
      name: flag.key,
      type: flag.type,
      description: null,
      permanent: false,
      include_in_mobile: true,
      include_in_client: true,
      values: flag.values.map((value) => ({ value, default: value === flag.defaultValue })),
      environments: { production: servings[i] },
    })),
  });
  return {
    file: fileWith(flags.map((_, i) => serving(i, false))),
    second: fileWith(flags.map((_, i) => serving(i, true))),
  };
}

const contexts = Array.from({ length: CONTEXTS }, (_, i) => ({
  type: 'user',
  identifier: `u${i}`,
  attributes: [
    { key: 'plan', values: [{ value: plans[i % plans.length] as string }] },
    { key: 'country', values: [{ value: countries[Math.floor(i / 3) % countries.length] as string }] },
  ],
}));

/** What every context gets: per context, each flag's value as JSON text. */
type Answers = Array<Record<string, string>>;

async function inParallel<T>(count: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < count) {
        const index = next++;
        out[index] = await work(index);
      }
    }),
  );
  return out;
}

describeEachDatabase(`switch and restore, property over generated configurations (seed ${SEED})`, (db) => {
  let app: TestApp;
  const random = prng(SEED);

  beforeAll(async () => {
    // Events stay in the outbox (nothing delivers them): the test counts them there.
    app = await startTestApp(db, { config: { webhooks: { ...noDelivery, allowPrivate: true } } });
  });
  afterAll(async () => {
    await app?.close();
  });

  const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(app.baseUrl + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(500);
    expect(res.status, `${method} ${path}: ${text}`).toBe(200);
    return JSON.parse(text);
  };

  /**
   * What every context gets, evaluated locally from the server-key payload once the server's
   * snapshot has caught up with the database; the first `overHttp` contexts also through
   * /v1/flags, the client payload and OFREP, which must agree.
   */
  async function answers(
    keys: { server: string; client: string },
    environmentUlid: string,
    flagKeys: string[],
    overHttp: number,
  ): Promise<Answers> {
    const wanted = Number((await app.knex('environments').where('ulid', environmentUlid).first('revision')).revision);
    let payload: { revision: number; config: EnvironmentConfig };
    const deadline = Date.now() + 10_000;
    do {
      payload = (await call('GET', '/v1/payload', { 'x-vexil-api-key': keys.server })).data;
      if (payload.revision >= wanted) break;
      await new Promise((r) => setTimeout(r, 25));
    } while (Date.now() < deadline);
    expect(payload.revision).toBeGreaterThanOrEqual(wanted);
    const snapshot = compileSnapshot(payload.config);
    const local: Answers = contexts.map((context) =>
      Object.fromEntries(flagKeys.map((key) => [key, JSON.stringify(evaluateFlag(snapshot, key, context as never)?.value)])),
    );
    const byList = await inParallel(overHttp, async (i) => {
      const body = await call('GET', '/v1/flags', { 'x-vexil-api-key': keys.server, 'x-vexil-context': JSON.stringify(contexts[i]) });
      return Object.fromEntries(
        (body.data as Array<{ flag: { key: string; type: string; value: Record<string, unknown> } }>).map(({ flag }) => [
          flag.key,
          // /v1/flags tags a value with its type: {"boolean": true}.
          JSON.stringify(flag.value[flag.type]),
        ]),
      );
    });
    const byClient = await inParallel(overHttp, async (i) => {
      const body = await call('GET', '/v1/payload', { 'x-vexil-api-key': keys.client, 'x-vexil-context': JSON.stringify(contexts[i]) });
      return Object.fromEntries((body.data.flags as Array<{ key: string; value: unknown }>).map((f) => [f.key, JSON.stringify(f.value)]));
    });
    const byOfrep = await inParallel(overHttp, async (i) => {
      const context = contexts[i]!;
      const ofrepContext = {
        targetingKey: context.identifier,
        plan: context.attributes[0]!.values[0]!.value,
        country: context.attributes[1]!.values[0]!.value,
      };
      const body = await call('POST', '/ofrep/v1/evaluate/flags', { 'x-api-key': keys.server }, { context: ofrepContext });
      return Object.fromEntries((body.flags as Array<{ key: string; value: unknown }>).map((f) => [f.key, JSON.stringify(f.value)]));
    });
    // The four channels agree for every context and flag.
    for (let i = 0; i < overHttp; i++) {
      for (const key of flagKeys) {
        const where = `context u${i}, flag ${key}`;
        expect(byList[i]![key], `/v1/flags: ${where}`).toBe(local[i]![key]);
        expect(byClient[i]![key], `client payload: ${where}`).toBe(local[i]![key]);
        expect(byOfrep[i]![key], `OFREP: ${where}`).toBe(local[i]![key]);
      }
    }
    return local;
  }

  const column = (all: Answers, key: string) => all.map((row) => row[key]);

  for (let configuration = 0; configuration < CONFIGURATIONS; configuration++) {
    it(`configuration ${configuration}: off serves the off value, on what served before, restore what served then`, async () => {
      const projectKey = `property-${SEED}-${configuration}`;
      const p = `/management/v1/projects/${projectKey}`;
      const owner = { authorization: `Bearer ${app.ownerToken}` };
      const { file, second } = generate(random, projectKey);
      const flagKeys: string[] = file.flags.map((f: { key: string }) => f.key);
      await call('POST', `${p}/configuration/apply`, owner, file);
      const environment = await app
        .knex('environments as e')
        .join('projects as p', 'p.ulid', 'e.project_ulid')
        .where('p.key', projectKey)
        .first('e.ulid');
      const key = async (kind: string) => (await call('POST', `${p}/environments/production/keys`, owner, { kind })).data.key as string;
      const keys = { server: await key('server'), client: await key('client') };
      await call('POST', `${p}/webhooks`, owner, { url: 'http://127.0.0.1:9/hook', events: ['target.switched', 'target.restored'] });

      const whileFirst = await answers(keys, environment.ulid, flagKeys, OVER_HTTP_SAMPLE);
      const firstTargets = new Map<string, string>();
      for (const flag of flagKeys) {
        const targets = (await call('GET', `${p}/flags/${flag}/environments/production/targets`, owner)).data as Array<{
          ulid: string;
          status: string;
        }>;
        firstTargets.set(flag, targets.find((t) => t.status === 'published')!.ulid);
      }
      await call('POST', `${p}/configuration/apply`, owner, second);
      const whileSecond = await answers(keys, environment.ulid, flagKeys, OVER_HTTP_SAMPLE);
      // The second publishes, some with a rollout in progress (the generator gives half of them one).
      const secondTargets = new Map<string, string>();
      for (const flag of flagKeys) {
        const targets = (await call('GET', `${p}/flags/${flag}/environments/production/targets`, owner)).data as Array<{
          ulid: string;
          status: string;
        }>;
        secondTargets.set(flag, targets.find((t) => t.status === 'published')!.ulid);
      }

      /** Runs one switch or restore and checks it wrote one audit entry and one webhook event (when it changed anything). */
      const change = async (path: string, body: unknown, action: string) => {
        const entries = async () => Number((await app.knex('audit_entries').where('http_path', path).count({ n: '*' }))[0]!.n);
        const events = async () => Number((await app.knex('webhook_events').where('event_type', action).count({ n: '*' }))[0]!.n);
        const [entriesBefore, eventsBefore] = [await entries(), await events()];
        const result = await call('POST', path, owner, body);
        expect(await entries(), `${path}: audit entries`).toBe(entriesBefore + 1);
        const written = (await app.knex('audit_entries').where('http_path', path).orderBy('ulid', 'desc').first('action')).action;
        expect(written).toBe(action);
        return { result, newEvents: (await events()) - eventsBefore };
      };

      // Off: every context gets the off value.
      const wasOn = new Map<string, boolean>();
      for (const flag of file.flags as Array<{ key: string; type: FlagType; values: Array<{ value: string; default: boolean }> }>) {
        const state = (await call('GET', `${p}/flags/${flag.key}?include=serving`, owner)).data.environments[0];
        wasOn.set(flag.key, state.on);
        const { result, newEvents } = await change(
          `${p}/flags/${flag.key}/environments/production/switch`,
          { on: false },
          'target.switched',
        );
        expect(result.data.on).toBe(false);
        expect(newEvents).toBe(state.on ? 1 : 0);
      }
      const off = await answers(keys, environment.ulid, flagKeys, CONTEXTS);
      for (const flag of file.flags as Array<{ key: string; type: FlagType; values: Array<{ value: string; default: boolean }> }>) {
        const display = flag.type === 'boolean' ? 'false' : flag.values.find((v) => v.default)!.value;
        const offValue = JSON.stringify(flag.type === 'string' ? display : JSON.parse(display));
        expect(new Set(column(off, flag.key)), `${flag.key} off`).toEqual(new Set([offValue]));
      }

      // On again: every context gets what it got before the switch went off.
      for (const flag of flagKeys.filter((f) => wasOn.get(f))) {
        const { result, newEvents } = await change(`${p}/flags/${flag}/environments/production/switch`, { on: true }, 'target.switched');
        expect(result.data.on).toBe(true);
        expect(newEvents).toBe(1);
      }
      const on = await answers(keys, environment.ulid, flagKeys, OVER_HTTP_SAMPLE);
      for (const flag of flagKeys) {
        expect(column(on, flag), `${flag} on again`).toEqual(column(wasOn.get(flag) ? whileSecond : off, flag));
      }

      // Restore of the first publish of every flag: every context gets what it got then.
      for (const flag of flagKeys) {
        const path = `${p}/flags/${flag}/environments/production/targets/${firstTargets.get(flag)}/restore`;
        const { newEvents } = await change(path, {}, 'target.restored');
        expect(newEvents).toBe(1);
      }
      const restored = await answers(keys, environment.ulid, flagKeys, OVER_HTTP_SAMPLE);
      for (const flag of flagKeys) expect(column(restored, flag), `${flag} restored`).toEqual(column(whileFirst, flag));

      // Restore of a publish that had a rollout in progress: README's restore publishes its base
      // value and rules again, without the rollout, so every context gets what that publish
      // serves in full (its rollout complete), not the share it got while the rollout ran.
      // "In full" is the second file with its rollouts removed, applied over the first publishes.
      const inFull = structuredClone(second);
      for (const flag of inFull.flags) flag.environments.production.rollout = null;
      await call('POST', `${p}/configuration/apply`, owner, inFull);
      const secondInFull = await answers(keys, environment.ulid, flagKeys, OVER_HTTP_SAMPLE);
      // Where neither the flag nor a prerequisite had a rollout, in full is what it served then.
      const standalone = second.flags
        .filter((f: any) => f.environments.production.rollout === null && !f.environments.production.prerequisites)
        .map((f: { key: string }) => f.key);
      for (const flag of standalone) {
        expect(column(secondInFull, flag), `${flag} in full, published without a rollout`).toEqual(column(whileSecond, flag));
      }
      // Back to the first publishes, then the second ones restored.
      for (const flag of flagKeys)
        await change(`${p}/flags/${flag}/environments/production/targets/${firstTargets.get(flag)}/restore`, {}, 'target.restored');
      for (const flag of flagKeys) {
        const path = `${p}/flags/${flag}/environments/production/targets/${secondTargets.get(flag)}/restore`;
        const { result, newEvents } = await change(path, {}, 'target.restored');
        expect(newEvents).toBe(1);
        // The documented behaviour: the restored publish carries no rollout, in progress or not.
        expect(result.data.status, `${flag} restored`).toBe('published');
        expect([result.data.rollout_mode, result.data.rollout_status], `${flag} restored without its rollout`).toEqual([null, null]);
      }
      const restoredSecond = await answers(keys, environment.ulid, flagKeys, OVER_HTTP_SAMPLE);
      for (const flag of flagKeys) {
        expect(column(restoredSecond, flag), `${flag}: the restored second publish serves in full`).toEqual(column(secondInFull, flag));
      }
    }, 240_000);
  }
});
