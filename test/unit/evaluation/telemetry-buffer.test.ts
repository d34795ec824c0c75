import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeTelemetryStore } from '../../fakes/evaluation-store.js';
import { TelemetryBuffer } from '../../../src/runtime/telemetry-buffer.js';
import { telemetryFlusher } from '../../../src/runtime/telemetry-flusher.js';

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-01-02T00:00:00.000Z';
const none = () => [];

describe('TelemetryBuffer', () => {
  it('aggregates flag events per flag and environment, keeping the latest times', () => {
    const buffer = new TelemetryBuffer();
    buffer.recordFlag('env_1', 'flg_a', 'used', 3, T2);
    buffer.recordFlag('env_1', 'flg_a', 'used', 2, T1);
    buffer.recordFlag('env_1', 'flg_a', 'evaluated', 1, T1);
    buffer.recordFlag('env_2', 'flg_a', 'retrieved', 1, T1);
    const batch = buffer.drain(none);
    expect(batch.flags).toEqual([
      {
        environmentUlid: 'env_1',
        flagUlid: 'flg_a',
        retrieved: 0,
        used: 5,
        evaluated: 1,
        lastRetrievedAt: null,
        lastUsedAt: T2,
        lastEvaluatedAt: T1,
      },
      {
        environmentUlid: 'env_2',
        flagUlid: 'flg_a',
        retrieved: 1,
        used: 0,
        evaluated: 0,
        lastRetrievedAt: T1,
        lastUsedAt: null,
        lastEvaluatedAt: null,
      },
    ]);
    expect(buffer.size).toBe(0);
    expect(buffer.drain(none)).toEqual({ flags: [], defaultReports: [], contexts: [], evaluationHours: [] });
  });

  it('expands whole-environment events to the flags of the platform when drained', () => {
    const buffer = new TelemetryBuffer();
    buffer.recordWholeEnvironment('env_1', 'client', 'retrieved', T1);
    buffer.recordWholeEnvironment('env_1', 'client', 'retrieved', T2);
    buffer.recordWholeEnvironment('env_1', 'server', 'evaluated', T1);
    buffer.recordFlag('env_1', 'flg_a', 'retrieved', 1, T1);
    expect(buffer.size).toBe(3);
    const batch = buffer.drain((env, platform) => (platform === 'client' ? ['flg_a'] : ['flg_a', 'flg_b']));
    expect(batch.flags).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ flagUlid: 'flg_a', retrieved: 3, evaluated: 1, lastRetrievedAt: T2 }),
        expect.objectContaining({ flagUlid: 'flg_b', retrieved: 0, evaluated: 1, lastEvaluatedAt: T1 }),
      ]),
    );
  });

  it('counts default reports and context observations (each attribute once per context)', () => {
    const buffer = new TelemetryBuffer();
    buffer.recordDefaultReport('env_1', 'unknown_flag', 'ghost', 'number', T1);
    buffer.recordDefaultReport('env_1', 'unknown_flag', 'ghost', 'number', T2);
    buffer.recordContext(
      'env_1',
      {
        type: 'user',
        identifier: 'u',
        attributes: [
          { key: 'plan', values: [{ value: 'pro' }, { value: 'pro' }] },
          { key: 'plan', values: [{ value: 'team' }] },
          { key: 'x'.repeat(201), values: [{ value: 'long name' }] },
          { key: 'long', values: [{ value: 'y'.repeat(201) }] },
        ],
      },
      T1,
    );
    const batch = buffer.drain(none);
    expect(batch.defaultReports).toEqual([
      { environmentUlid: 'env_1', kind: 'unknown_flag', flagKey: 'ghost', declaredType: 'number', count: 2, lastSeenAt: T2 },
    ]);
    const summary = batch.contexts.map((c) => `${c.kind}:${c.name}:${c.value}:${c.count}`).sort();
    expect(summary).toEqual(['attribute:long::1', 'attribute:plan::1', 'type:user::1', 'value:plan:pro:1', 'value:plan:team:1']);
  });

  it('keeps context observations apart by environment and kind, in first-seen order, at most 100 values per attribute', () => {
    const buffer = new TelemetryBuffer();
    // 'plan' is both a context type and an attribute name; 'a' repeats values across two entries.
    const many = Array.from({ length: 150 }, (_, i) => ({ value: `v${i % 120}` }));
    buffer.recordContext('env_1', { type: 'plan', identifier: 'u', attributes: [{ key: 'plan', values: [{ value: 'plan' }] }] }, T1);
    buffer.recordContext('env_2', { type: 'plan', identifier: 'u' }, T2);
    buffer.recordContext(
      'env_1',
      {
        type: 'plan',
        identifier: 'u',
        attributes: [
          { key: 'a', values: many.slice(0, 5) },
          { key: 'b', values: [] },
          { key: 'a', values: many },
        ],
      },
      T2,
    );
    const batch = buffer.drain(none);
    const labels = batch.contexts.map((c) => `${c.environmentUlid}/${c.kind}:${c.name}:${c.value}:${c.count}`);
    expect(labels.slice(0, 6)).toEqual([
      'env_1/type:plan::2',
      'env_1/attribute:plan::1',
      'env_1/value:plan:plan:1',
      'env_2/type:plan::1',
      'env_1/attribute:a::1',
      'env_1/value:a:v0:1',
    ]);
    const values = batch.contexts.filter((c) => c.kind === 'value' && c.name === 'a').map((c) => c.value);
    expect(values).toEqual(Array.from({ length: 100 }, (_, i) => `v${i}`));
    expect(labels).toContain('env_1/attribute:b::1');
    expect(batch.contexts.find((c) => c.kind === 'type' && c.environmentUlid === 'env_1')?.lastSeenAt).toBe(T2);
  });

  it('counts a frozen context sent again as a new one, across drains, environments and a full buffer', () => {
    const buffer = new TelemetryBuffer(3);
    const context = Object.freeze({
      type: 'user',
      identifier: 'u',
      attributes: Object.freeze([Object.freeze({ key: 'plan', values: Object.freeze([{ value: 'pro' }, { value: 'team' }]) })]),
    });
    const summary = (batch: ReturnType<TelemetryBuffer['drain']>) =>
      batch.contexts.map((c) => `${c.environmentUlid}/${c.kind}:${c.name}:${c.value}:${c.count}:${c.lastSeenAt}`);
    // The four observations of `context` in one environment, each counted `count` times.
    const observed = (environment: string, count: number, lastSeenAt: string) => [
      `${environment}/type:user::${count}:${lastSeenAt}`,
      `${environment}/attribute:plan::${count}:${lastSeenAt}`,
      `${environment}/value:plan:pro:${count}:${lastSeenAt}`,
      `${environment}/value:plan:team:${count}:${lastSeenAt}`,
    ];
    // Three observations fit; the fourth (value team) is dropped, so the context is walked again.
    buffer.recordContext('env_1', context, T1);
    expect(buffer.dropped).toBe(1);
    buffer.recordContext('env_1', context, T2);
    expect(buffer.dropped).toBe(2);
    expect(summary(buffer.drain(none))).toEqual([
      `env_1/type:user::2:${T2}`,
      `env_1/attribute:plan::2:${T2}`,
      `env_1/value:plan:pro:2:${T2}`,
    ]);
    // After a drain the entries are new ones, and another environment counts apart.
    const roomy = new TelemetryBuffer();
    roomy.recordContext('env_1', context, T2);
    roomy.recordContext('env_1', context, T1);
    roomy.recordContext('env_2', context, T1);
    roomy.recordContext('env_1', context, T2);
    expect(summary(roomy.drain(none))).toEqual([...observed('env_1', 3, T2), ...observed('env_2', 1, T1)]);
    roomy.recordContext('env_1', context, T1);
    expect(summary(roomy.drain(none))).toEqual(observed('env_1', 1, T1));
  });

  it('restores context observations into the ones recorded since', () => {
    const buffer = new TelemetryBuffer(3);
    const context = { type: 'user', identifier: 'u', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] };
    buffer.recordContext('env_1', context, T1);
    const batch = buffer.drain(none);
    buffer.recordContext('env_1', { type: 'user', identifier: 'v' }, T2);
    buffer.restore(batch);
    expect(buffer.size).toBe(3);
    buffer.recordContext('env_1', context, T1);
    buffer.recordContext('env_1', { type: 'device', identifier: 'd' }, T1);
    expect(buffer.dropped).toBe(1);
    const again = buffer.drain(none);
    expect(again.contexts.map((c) => `${c.kind}:${c.name}:${c.value}:${c.count}:${c.lastSeenAt}`)).toEqual([
      `type:user::3:${T2}`,
      `attribute:plan::2:${T1}`,
      `value:plan:pro:2:${T1}`,
    ]);
  });

  it('keeps both kinds of default report for one flag key apart, and restores them in place', () => {
    const buffer = new TelemetryBuffer();
    buffer.recordDefaultReport('env_1', 'missing_default', 'a', null, T1);
    buffer.recordDefaultReport('env_1', 'unknown_flag', 'a', 'string', T1);
    buffer.recordDefaultReport('env_2', 'missing_default', 'a', null, T2);
    buffer.recordDefaultReport('env_1', 'missing_default', 'a', null, T2);
    const batch = buffer.drain(none);
    expect(batch.defaultReports.map((r) => `${r.environmentUlid}/${r.kind}:${r.flagKey}:${r.count}:${r.lastSeenAt}`)).toEqual([
      `env_1/missing_default:a:2:${T2}`,
      `env_1/unknown_flag:a:1:${T1}`,
      `env_2/missing_default:a:1:${T2}`,
    ]);
    buffer.recordDefaultReport('env_1', 'unknown_flag', 'a', 'number', T2);
    buffer.restore(batch);
    const again = buffer.drain(none);
    expect(again.defaultReports.map((r) => `${r.environmentUlid}/${r.kind}:${r.count}:${r.declaredType}`)).toEqual([
      'env_1/unknown_flag:2:number',
      'env_1/missing_default:2:null',
      'env_2/missing_default:1:null',
    ]);
  });

  it('counts a whole key list missing its defaults once per request, and drains it as the same per-key reports', () => {
    const keys = Object.freeze(['a', 'b', 'c']);
    const listed = new TelemetryBuffer();
    listed.recordMissingDefaults('env_1', keys, T1);
    listed.recordDefaultReport('env_1', 'missing_default', 'b', null, T1);
    listed.recordMissingDefaults('env_1', keys, T2);
    listed.recordDefaultReport('env_1', 'unknown_flag', 'c', 'string', T1);
    const perKey = new TelemetryBuffer();
    for (const key of keys) perKey.recordDefaultReport('env_1', 'missing_default', key, null, T1);
    perKey.recordDefaultReport('env_1', 'missing_default', 'b', null, T1);
    for (const key of keys) perKey.recordDefaultReport('env_1', 'missing_default', key, null, T2);
    perKey.recordDefaultReport('env_1', 'unknown_flag', 'c', 'string', T1);
    // The same records one key at a time drain to the same reports.
    const sorted = (buffer: TelemetryBuffer) =>
      buffer
        .drain(none)
        .defaultReports.map((r) => `${r.kind}:${r.flagKey}:${r.count}:${r.lastSeenAt}`)
        .sort();
    expect(sorted(listed)).toEqual([
      `missing_default:a:2:${T2}`,
      `missing_default:b:3:${T2}`,
      `missing_default:c:2:${T2}`,
      `unknown_flag:c:1:${T1}`,
    ]);
    expect(sorted(perKey)).toEqual([
      `missing_default:a:2:${T2}`,
      `missing_default:b:3:${T2}`,
      `missing_default:c:2:${T2}`,
      `unknown_flag:c:1:${T1}`,
    ]);
  });

  it('is bounded: new keys are dropped when full while held keys still aggregate', () => {
    const buffer = new TelemetryBuffer(2);
    buffer.recordFlag('env_1', 'flg_a', 'used', 1, T1);
    buffer.recordFlag('env_1', 'flg_b', 'used', 1, T1);
    buffer.recordFlag('env_1', 'flg_c', 'used', 1, T1);
    buffer.recordFlag('env_1', 'flg_a', 'used', 1, T1);
    expect(buffer.size).toBe(2);
    expect(buffer.dropped).toBe(1);
    const batch = buffer.drain(none);
    expect(batch.flags.map((f) => [f.flagUlid, f.used])).toEqual([
      ['flg_a', 2],
      ['flg_b', 1],
    ]);
    expect(buffer.dropped).toBe(0);
  });

  it('restores a batch that could not be written', () => {
    const buffer = new TelemetryBuffer();
    buffer.recordFlag('env_1', 'flg_a', 'used', 2, T1);
    buffer.recordDefaultReport('env_1', 'missing_default', 'a', null, T1);
    const batch = buffer.drain(none);
    buffer.recordFlag('env_1', 'flg_a', 'used', 1, T2);
    buffer.restore(batch);
    const again = buffer.drain(none);
    expect(again.flags[0]).toMatchObject({ used: 3, lastUsedAt: T2 });
    expect(again.defaultReports[0]).toMatchObject({ flagKey: 'a', count: 1 });
  });
});

describe('TelemetryBuffer: hourly evaluation counts', () => {
  it('counts per environment, flag, UTC hour and value, and restores a failed batch into what came since', () => {
    const buffer = new TelemetryBuffer();
    buffer.recordServed('env_1', 'flg_a', 'true', 1, '2026-01-01T10:05:00.000Z');
    buffer.recordServed('env_1', 'flg_a', 'true', 1, '2026-01-01T10:59:59.999Z');
    buffer.recordServed('env_1', 'flg_a', 'false', 1, '2026-01-01T10:30:00.000Z');
    buffer.recordServed('env_1', 'flg_a', 'true', 1, '2026-01-01T11:00:00.000Z');
    buffer.recordServed('env_2', 'flg_a', 'true', 1, '2026-01-01T10:00:00.000Z');
    const batch = buffer.drain(none);
    expect(batch.evaluationHours).toEqual([
      { environmentUlid: 'env_1', flagUlid: 'flg_a', hour: '2026-01-01T10:00:00.000Z', value: 'true', count: 2 },
      { environmentUlid: 'env_1', flagUlid: 'flg_a', hour: '2026-01-01T10:00:00.000Z', value: 'false', count: 1 },
      { environmentUlid: 'env_1', flagUlid: 'flg_a', hour: '2026-01-01T11:00:00.000Z', value: 'true', count: 1 },
      { environmentUlid: 'env_2', flagUlid: 'flg_a', hour: '2026-01-01T10:00:00.000Z', value: 'true', count: 1 },
    ]);
    expect(buffer.size).toBe(0);
    buffer.recordServed('env_1', 'flg_a', 'true', 1, '2026-01-01T10:10:00.000Z');
    buffer.restore(batch);
    expect(buffer.drain(none).evaluationHours[0]).toEqual({
      environmentUlid: 'env_1',
      flagUlid: 'flg_a',
      hour: '2026-01-01T10:00:00.000Z',
      value: 'true',
      count: 3,
    });
  });

  it('tallies served outcomes per snapshot and hour into the same counts, in display form, skipping keys the snapshot does not name', () => {
    const snapshotA = new Map([
      ['a', 'flg_a'],
      ['j', 'flg_j'],
      ['n', 'flg_n'],
    ]);
    const snapshotB = new Map([['a', 'flg_a']]);
    const buffer = new TelemetryBuffer();
    const h10 = '2026-01-01T10:00:00.000Z';
    const h11 = '2026-01-01T11:00:00.000Z';
    buffer.recordServedOutcomes(
      'env_1',
      snapshotA,
      [
        { key: 'a', value: true },
        { key: 'j', value: { x: [1] } },
        { key: 'n', value: 2.5 },
      ],
      h10,
    );
    buffer.recordServedOutcomes(
      'env_1',
      snapshotA,
      [
        { key: 'a', value: false },
        { key: 'j', value: { x: [1] } },
        { key: 'gone', value: 1 },
      ],
      h10,
    );
    // A new snapshot of the same environment, and a new hour of the first.
    buffer.recordServedOutcomes('env_1', snapshotB, [{ key: 'a', value: true }], h10);
    buffer.recordServedOutcomes(
      'env_1',
      snapshotA,
      [
        { key: 'a', value: true },
        { key: 'j', value: null },
      ],
      h11,
    );
    expect(buffer.size).toBeGreaterThan(0);
    const rows = buffer.drain(none).evaluationHours.map((r) => `${r.hour.slice(11, 13)} ${r.flagUlid}=${r.value} x${r.count}`);
    expect(rows.sort()).toEqual(
      ['10 flg_a=true x2', '10 flg_a=false x1', '10 flg_j={"x":[1]} x2', '10 flg_n=2.5 x1', '11 flg_a=true x1', '11 flg_j=null x1'].sort(),
    );
    expect(buffer.size).toBe(0);
  });

  it('counts a flag with many distinct served values beyond the tally, through the hourly counts', () => {
    const snapshot = new Map([['s', 'flg_s']]);
    const buffer = new TelemetryBuffer();
    const hour = '2026-01-01T10:00:00.000Z';
    for (let i = 0; i < 40; i++) buffer.recordServedOutcomes('env_1', snapshot, [{ key: 's', value: `v${i % 20}` }], hour);
    const rows = buffer.drain(none).evaluationHours;
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.count === 2)).toBe(true);
  });

  it('is bounded like the other telemetry: new hours and values are dropped when full', () => {
    const buffer = new TelemetryBuffer(1);
    buffer.recordServed('env_1', 'flg_a', 'true', 1, T1);
    buffer.recordServed('env_1', 'flg_a', 'false', 1, T1);
    buffer.recordServed('env_1', 'flg_a', 'true', 1, T1);
    expect(buffer.dropped).toBe(1);
    expect(buffer.drain(none).evaluationHours).toEqual([
      { environmentUlid: 'env_1', flagUlid: 'flg_a', hour: T1, value: 'true', count: 2 },
    ]);
  });
});

describe('telemetryFlusher', () => {
  it('writes the buffer on flush and on stop, and keeps a failed batch for the next attempt', async () => {
    const buffer = new TelemetryBuffer();
    const store = new FakeTelemetryStore();
    const flusher = telemetryFlusher(buffer, store, none, 60_000, pino({ level: 'silent' }));
    flusher.start();
    buffer.recordFlag('env_1', 'flg_a', 'used', 1, T1);
    store.failNext = true;
    await flusher.flush();
    expect(store.batches).toHaveLength(0);
    expect(buffer.size).toBe(1);
    buffer.recordFlag('env_1', 'flg_a', 'used', 1, T1);
    await flusher.flush();
    expect(store.batches[0]!.flags[0]).toMatchObject({ used: 2 });
    buffer.recordFlag('env_1', 'flg_b', 'evaluated', 1, T1);
    await flusher.stop();
    expect(store.batches).toHaveLength(2);
    expect(store.batches[1]!.flags[0]).toMatchObject({ flagUlid: 'flg_b', evaluated: 1 });
    await flusher.flush();
    expect(store.batches).toHaveLength(2);
  });
});
