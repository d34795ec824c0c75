/**
 * The client and mobile payloads and OFREP bulk are encoded from parts kept per snapshot, and the
 * answer for a context asked for again is kept: each answer must be byte for byte what the
 * object form (built here from the engine's outcomes, as the answers were built before) encodes
 * to, for many contexts, asked for once and again, through the header and the body.
 */
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { evaluateAll, type Context, type EvaluationOutcome } from '../../src/engine/index.js';
import { toOfrepSuccess } from '../../src/features/evaluation/ofrep-shape.js';
import { ofrepContext } from '../../src/features/evaluation/inputs.js';
import { KnexConfigSource } from '../../src/runtime/config-loader.js';
import { SnapshotCache } from '../../src/runtime/snapshot-cache.js';
import type { EnvironmentSnapshot } from '../../src/runtime/environment-snapshot.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Fixtures, type EnvironmentFixture } from './public-fixtures.js';

const plans = ['free', 'pro', 'gold'];
/** Contexts with and without attributes; OFREP's through targetingKey and its members. */
const contexts = Array.from({ length: 40 }, (_, i) => ({
  type: 'user',
  identifier: `user-${i}`,
  ...(i % 5 === 0 ? {} : { attributes: { plan: plans[i % 3], country: i % 2 === 0 ? 'fr' : 'de' } }),
}));

/** The payload's object form, as the service built it before the answers were encoded from parts. */
function payloadObject(entry: EnvironmentSnapshot, etag: string, outcomes: readonly EvaluationOutcome[]) {
  return {
    status: 'success',
    data: {
      kind: 'client',
      etag,
      revision: entry.revision,
      environment: { ulid: entry.environmentUlid, key: entry.environmentKey },
      flags: outcomes.map((o) =>
        o.split === undefined
          ? { key: o.key, name: o.name, type: o.type, value: o.value, resolved_by: o.resolved_by }
          : { key: o.key, name: o.name, type: o.type, value: o.value, resolved_by: o.resolved_by, split: o.split },
      ),
    },
  };
}

describeEachDatabase('payloads and OFREP bulk encoded from parts', (db) => {
  let app: TestApp;
  let env: EnvironmentFixture;
  let keys: { client: string; mobile: string };
  let entry: EnvironmentSnapshot;
  /** The engine's context of a header context, as the decoder reads it. */
  const decode = (context: (typeof contexts)[number]): Context => ({
    type: context.type,
    identifier: context.identifier,
    ...(context.attributes
      ? { attributes: Object.entries(context.attributes).map(([key, value]) => ({ key, values: [{ value: String(value) }] })) }
      : {}),
  });

  beforeAll(async () => {
    app = await startTestApp(db);
    const fx = new Fixtures(app);
    const keyed = await fx.keyedEnvironment('production');
    env = keyed.env;
    keys = { client: keyed.clientKey, mobile: keyed.mobileKey };
    const project = keyed.project;
    const plan = (value: string) => [{ selector: 'attribute' as const, sub_selector: 'plan', comparer: 'equal', values: [value] }];
    const beta = await fx.flag(project, { key: 'beta', type: 'boolean' });
    await fx.publish(env, beta, { value: 'false', rules: [{ value: 'true', criteria: plan('pro') }] });
    const rolled = await fx.flag(project, { key: 'rolled', type: 'boolean' });
    await fx.publish(env, rolled, { value: 'false' });
    await fx.publish(env, rolled, { value: 'true', rollout: { percentage: 40 } });
    const copy = await fx.flag(project, { key: 'copy', type: 'string', values: ['Hello "you"', 'Grüß dich'], include_in_mobile: false });
    await fx.publish(env, copy, { value: 'Grüß dich', rules: [{ value: 'Hello "you"', criteria: plan('gold') }] });
    const limit = await fx.flag(project, { key: 'limit', type: 'number', values: ['3', '10.5'] });
    await fx.publish(env, limit, { value: '3', rules: [{ value: '10.5', criteria: plan('pro') }] });
    const limits = await fx.flag(project, {
      key: 'limits',
      type: 'json',
      values: ['{"max":3,"tags":["a"]}', '[]'],
      include_in_client: false,
    });
    await fx.publish(env, limits, { value: '[]', rules: [{ value: '{"max":3,"tags":["a"]}', criteria: plan('free') }] });
    await fx.flag(project, { key: 'unpublished', type: 'boolean' });
    // A split: the base of a published target, through the management API.
    const layout = `/projects/${project.key}/flags/layout`;
    expect((await app.mgmt('POST', `/projects/${project.key}/flags`, { key: 'layout', name: 'Layout', type: 'string' })).status).toBe(200);
    const shares = [];
    for (const [display, weight] of [
      ['control', 50000],
      ['blue', 50000],
    ] as const) {
      const created = await app.mgmt('POST', `${layout}/values`, { display });
      shares.push({ value_ulid: created.body.data.ulid as string, weight });
    }
    const draft = await app.mgmt('POST', `${layout}/environments/production/targets`);
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    const target = `${layout}/environments/production/targets/${draft.body.data.ulid}`;
    expect((await app.mgmt('PUT', target, { split: { shares } })).status).toBe(200);
    const published = await app.mgmt('PUT', `${target}/publish`, {});
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    await fx.settle(env);
    const cache = new SnapshotCache(new KnexConfigSource(app.knex, app.composition.core.dialect), pino({ level: 'silent' }));
    entry = (await cache.getFresh(env.ulid)) as EnvironmentSnapshot;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers every context with the bytes of the object form, first and repeated, header and body alike', async () => {
    let splits = 0;
    for (const platform of ['client', 'mobile'] as const) {
      for (const context of contexts) {
        const outcomes = evaluateAll(entry.snapshot, decode(context), [], { platform });
        splits += outcomes.filter((o) => o.split !== undefined).length;
        const answers = [];
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${app.baseUrl}/v1/payload`, {
            headers: { 'x-vexil-api-key': keys[platform], 'x-vexil-context': JSON.stringify(decode(context)) },
          });
          answers.push({
            status: res.status,
            etag: res.headers.get('etag'),
            type: res.headers.get('content-type'),
            text: await res.text(),
          });
        }
        const posted = await fetch(`${app.baseUrl}/v1/payload`, {
          method: 'POST',
          headers: { 'x-vexil-api-key': keys[platform], 'content-type': 'application/json' },
          body: JSON.stringify({ context: decode(context) }),
        });
        answers.push({
          status: posted.status,
          etag: posted.headers.get('etag'),
          type: posted.headers.get('content-type'),
          text: await posted.text(),
        });
        const etag = answers[0]?.etag as string;
        const expected = JSON.stringify(payloadObject(entry, etag, outcomes));
        for (const answer of answers) {
          expect(answer).toEqual({ status: 200, etag, type: 'application/json; charset=utf-8', text: expected });
        }
        // A kept answer's ETag still answers 304.
        const revalidated = await fetch(`${app.baseUrl}/v1/payload`, {
          headers: { 'x-vexil-api-key': keys[platform], 'x-vexil-context': JSON.stringify(decode(context)), 'if-none-match': etag },
        });
        expect(revalidated.status).toBe(304);
      }
    }
    // The contexts reached splits and rules alike (the items encoded in full, not only kept ones).
    expect(splits).toBeGreaterThan(10);
  }, 120_000);

  it('answers OFREP bulk with the bytes of toOfrepSuccess for every context, first and repeated', async () => {
    for (const platform of ['client', 'mobile'] as const) {
      for (const context of contexts) {
        const body = { context: { targetingKey: context.identifier, ...(context.attributes ?? {}) } };
        const parsed = ofrepContext(body);
        if (!parsed.ok) throw new Error('invalid context');
        const outcomes = evaluateAll(entry.snapshot, parsed.context, [], { platform });
        const expected = JSON.stringify({ flags: outcomes.map((o) => toOfrepSuccess(o, entry.flagRevision(o.key))) });
        let etag: string | null = null;
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${app.baseUrl}/ofrep/v1/evaluate/flags`, {
            method: 'POST',
            headers: { 'x-api-key': keys[platform], 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          expect(res.status).toBe(200);
          expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
          expect(await res.text()).toBe(expected);
          etag ??= res.headers.get('etag');
          expect(res.headers.get('etag')).toBe(etag);
        }
        const revalidated = await fetch(`${app.baseUrl}/ofrep/v1/evaluate/flags`, {
          method: 'POST',
          headers: { 'x-api-key': keys[platform], 'content-type': 'application/json', 'if-none-match': etag as string },
          body: JSON.stringify(body),
        });
        expect(revalidated.status).toBe(304);
      }
    }
  }, 120_000);
});
