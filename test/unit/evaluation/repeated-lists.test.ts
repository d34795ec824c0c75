import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PublicPrincipal } from '../../../src/auth/principal.js';
import { invalidAttributeCounts, type Context, type EvaluationOutcome } from '../../../src/engine/index.js';
import { RepeatedLists } from '../../../src/features/evaluation/repeated-lists.js';
import { EvaluationService } from '../../../src/features/evaluation/service.js';
import { newEvaluationCounts, type EvaluationCounts } from '../../../src/observability/metrics.js';
import { SnapshotCache } from '../../../src/runtime/snapshot-cache.js';
import { TelemetryBuffer } from '../../../src/runtime/telemetry-buffer.js';
import { FakeConfigSource } from '../../fakes/evaluation-store.js';
import { config, flag } from './helpers.js';

const clock = { now: () => new Date('2026-03-01T12:00:00.000Z') };
const server: PublicPrincipal = {
  keyUlid: 'key_s',
  kind: 'server',
  environmentUlid: 'env_1',
  environmentKey: 'production',
  projectUlid: 'prj_1',
};

/** A context as the header decoder hands it out for a text it has seen: shared and frozen. */
function decoded(context: Context): Context {
  const copy = structuredClone(context) as Context;
  for (const attribute of copy.attributes ?? []) {
    for (const value of attribute.values) Object.freeze(value);
    Object.freeze(attribute.values);
    Object.freeze(attribute);
  }
  if (copy.attributes) Object.freeze(copy.attributes);
  return Object.freeze(copy);
}

const pro = decoded({ type: 'user', identifier: 'u-1', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] });

const flags = (betaServes: boolean) => [
  flag({
    key: 'beta',
    type: 'boolean',
    default: { value: false },
    serving: {
      value: betaServes,
      rules: [{ value: true, criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
    },
  }),
  flag({ key: 'copy', type: 'string', default: { value: 'hi' } }),
  flag({
    key: 'app-version',
    type: 'boolean',
    default: { value: false },
    serving: {
      value: false,
      rules: [{ value: true, criteria: [{ selector: 'attribute', sub_selector: 'version', comparer: 'semver_gte', values: ['2.0.0'] }] }],
    },
  }),
];

describe('GET /v1/flags for a repeated context', () => {
  let source: FakeConfigSource;
  let cache: SnapshotCache;
  let telemetry: TelemetryBuffer;
  let evaluations: EvaluationCounts;
  let service: EvaluationService;

  beforeEach(() => {
    source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(12, flags(false)) });
    cache = new SnapshotCache(source, pino({ level: 'silent' }));
    telemetry = new TelemetryBuffer();
    evaluations = newEvaluationCounts();
    service = new EvaluationService({ cache, telemetry, clock, evaluations });
  });

  const list = async (context: Context | null) => service.listEvaluated(server, context, []);
  const served = () => {
    const batch = telemetry.drain(() => []);
    return Object.fromEntries(batch.evaluationHours.map((h) => [`${h.flagUlid}=${h.value}`, h.count]));
  };

  it('answers the same bytes, kept from the second request on, and counts every request as evaluated and served', async () => {
    const first = await list(pro);
    const second = await list(pro);
    expect(second).not.toBe(first);
    expect(second.equals(first)).toBe(true);
    expect(await list(pro)).toBe(second);
    expect(JSON.parse(first.toString()).data.map((item: { flag: { value: unknown } }) => item.flag.value)).toEqual([
      { boolean: true },
      { string: 'hi' },
      { boolean: false },
    ]);
    expect(evaluations).toEqual({ rule: 3, target: 3, default: 3, rollout: 0, prerequisite: 0 });
    const batch = telemetry.drain(() => []);
    expect(Object.fromEntries(batch.evaluationHours.map((h) => [`${h.flagUlid}=${h.value}`, h.count]))).toEqual({
      'flg_app-version=false': 3,
      'flg_beta=true': 3,
      'flg_copy=hi': 3,
    });
    expect(batch.defaultReports.map((r) => `${r.flagKey}:${r.count}`).sort()).toEqual(['app-version:3', 'beta:3', 'copy:3']);
  });

  it('keeps counting after each drain of the telemetry', async () => {
    await list(pro);
    expect(served()).toMatchObject({ 'flg_beta=true': 1 });
    await list(pro);
    await list(pro);
    expect(served()).toMatchObject({ 'flg_beta=true': 2 });
    await list(null);
    await list(null);
    expect(served()).toMatchObject({ 'flg_beta=false': 2, 'flg_copy=hi': 2 });
  });

  it('answers from the new snapshot once a change is loaded', async () => {
    await cache.refresh();
    const before = await list(null);
    source.change('env_1', config(13, flags(true)), ['beta']);
    await cache.refresh();
    const after = await list(null);
    expect(after).not.toBe(before);
    expect(JSON.parse(after.toString()).data[0].flag.value).toEqual({ boolean: true });
    expect(JSON.parse(before.toString()).data[0].flag.value).toEqual({ boolean: false });
  });

  it('evaluates again for a context that is not shared (a request body) and for unreadable attribute values', async () => {
    const fromBody: Context = { type: 'user', identifier: 'u-1', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] };
    const first = await list(fromBody);
    const second = await list(fromBody);
    expect(second).not.toBe(first);
    expect(second.equals(first)).toBe(true);
    expect(served()).toMatchObject({ 'flg_beta=true': 2, 'flg_copy=hi': 2 });

    const unreadable = decoded({ type: 'user', identifier: 'u-2', attributes: [{ key: 'version', values: [{ value: 'not-a-version' }] }] });
    const counted = invalidAttributeCounts().version;
    await list(unreadable);
    await list(unreadable);
    expect(invalidAttributeCounts().version).toBe(counted + 2);
  });
});

describe('RepeatedLists', () => {
  const outcome = (key: string): EvaluationOutcome => ({ key, name: key, type: 'boolean', value: true, resolved_by: 'rule' });
  const context = decoded({ type: 'user', identifier: 'u' });
  const snapshot = {};

  it('keeps only the frozen contexts the decoder shares, and none', () => {
    expect(RepeatedLists.keeps(context)).toBe(true);
    expect(RepeatedLists.keeps(null)).toBe(true);
    expect(RepeatedLists.keeps({ type: 'user', identifier: 'u' })).toBe(false);
  });

  /** `keep` after the context's first request, which is never kept. */
  const keepRepeated = (lists: RepeatedLists<Buffer>, environment: string, at: object, each: Context, body: Buffer) => {
    lists.keep(environment, at, each, [], body);
    return lists.keep(environment, at, each, [outcome('a')], body);
  };

  it("keeps a context's list from its second request on, and the list for no context at once", () => {
    const lists = new RepeatedLists<Buffer>();
    const first = lists.keep('env_1', snapshot, context, [outcome('a')], Buffer.from('body'));
    expect(first.kept).toBe(false);
    expect(first.byReason).toEqual([['rule', 1]]);
    expect(lists.get('env_1', snapshot, context)).toBeUndefined();
    expect(lists.keptLists).toBe(0);
    const second = lists.keep('env_1', snapshot, context, [outcome('a')], Buffer.from('body'));
    expect(second.kept).toBe(true);
    expect(lists.get('env_1', snapshot, context)).toBe(second);
    expect(lists.keep('env_1', snapshot, null, [], Buffer.from('none')).kept).toBe(true);
    // A stream of contexts each asked for once keeps nothing.
    for (const identifier of ['a', 'b', 'c']) lists.keep('env_1', snapshot, decoded({ type: 'user', identifier }), [], Buffer.alloc(1));
    expect(lists.keptLists).toBe(2);
    expect(lists.keptBytes).toBe(8);
  });

  it('answers for the snapshot it kept the list for only', () => {
    const lists = new RepeatedLists<Buffer>();
    const kept = keepRepeated(lists, 'env_1', snapshot, context, Buffer.from('body'));
    expect(kept.byReason).toEqual([['rule', 1]]);
    expect(kept.kept).toBe(true);
    expect(lists.get('env_1', snapshot, context)).toBe(kept);
    expect(lists.get('env_2', snapshot, context)).toBeUndefined();
    expect(lists.get('env_1', {}, context)).toBeUndefined();
    lists.keep('env_1', {}, context, [outcome('a')], Buffer.from('next'));
    expect(lists.get('env_1', snapshot, context)).toBeUndefined();
    expect(lists.keptBytes).toBe(4);
  });

  it('lets everything go when as many lists as allowed are kept, however small their bodies', () => {
    const lists = new RepeatedLists<Buffer>(1024, 3);
    const contexts = ['a', 'b', 'c', 'd'].map((identifier) => decoded({ type: 'user', identifier }));
    for (const each of contexts.slice(0, 3)) keepRepeated(lists, 'env_1', snapshot, each, Buffer.alloc(1));
    expect(lists.keptLists).toBe(3);
    lists.keep('env_1', snapshot, contexts[0] as Context, [], Buffer.alloc(1));
    expect(lists.keptLists).toBe(1);
    keepRepeated(lists, 'env_1', snapshot, contexts[3] as Context, Buffer.alloc(1));
    lists.keep('env_1', {}, contexts[1] as Context, [], Buffer.alloc(1));
    expect(lists.keptLists).toBe(1);
    expect(lists.keptBytes).toBe(1);
  });

  it('lets everything go when the byte budget is reached, and never keeps a body larger than it', () => {
    const lists = new RepeatedLists<Buffer>(10);
    const other = decoded({ type: 'user', identifier: 'v' });
    keepRepeated(lists, 'env_1', snapshot, context, Buffer.alloc(6));
    keepRepeated(lists, 'env_1', snapshot, other, Buffer.alloc(6));
    expect(lists.get('env_1', snapshot, context)).toBeUndefined();
    expect(lists.get('env_1', snapshot, other)).toBeDefined();
    expect(lists.keptBytes).toBe(6);
    expect(lists.keep('env_1', snapshot, context, [], Buffer.alloc(11)).kept).toBe(false);
    expect(lists.get('env_1', snapshot, context)).toBeUndefined();
    expect(lists.keptBytes).toBe(6);
  });
});
