import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PublicPrincipal } from '../../../src/auth/principal.js';
import { FakeConfigSource } from '../../fakes/evaluation-store.js';
import { OfrepService } from '../../../src/features/evaluation/ofrep-service.js';
import { variantOf, type OfrepItemFailure, type OfrepSuccess } from '../../../src/features/evaluation/ofrep-shape.js';
import { EvaluationService } from '../../../src/features/evaluation/service.js';
import { NotFoundError, OfrepError, UnauthorizedError } from '../../../src/http/errors.js';
import { SnapshotCache } from '../../../src/runtime/snapshot-cache.js';
import { TelemetryBuffer } from '../../../src/runtime/telemetry-buffer.js';
import { config, flag } from './helpers.js';

const clock = { now: () => new Date('2026-03-01T12:00:00.000Z') };
const principal = (kind: PublicPrincipal['kind'], environmentUlid = 'env_1'): PublicPrincipal => ({
  keyUlid: `key_${kind}`,
  kind,
  environmentUlid,
  environmentKey: 'production',
  projectUlid: 'prj_1',
});

/** The flags of a client or mobile payload's bytes. */
function payloadFlags(bytes: Buffer | undefined): Array<{ key: string }> {
  return (JSON.parse(String(bytes)) as { data: { flags: Array<{ key: string }> } }).data.flags;
}

/** The items of an OFREP bulk answer, encoded or not. */
function bulkFlags(bulk: Awaited<ReturnType<OfrepService['evaluateAll']>>): Array<OfrepSuccess | OfrepItemFailure> {
  if (bulk.notModified) throw new Error('expected a body');
  return 'bytes' in bulk ? (JSON.parse(String(bulk.bytes)) as { flags: Array<OfrepSuccess | OfrepItemFailure> }).flags : bulk.flags;
}

describe('EvaluationService', () => {
  let source: FakeConfigSource;
  let telemetry: TelemetryBuffer;
  let service: EvaluationService;
  let ofrep: OfrepService;
  let cache: SnapshotCache;

  beforeEach(async () => {
    source = new FakeConfigSource();
    source.set({
      ulid: 'env_1',
      config: config(12, [
        flag({
          key: 'beta',
          type: 'boolean',
          default: { value: false },
          serving: {
            value: false,
            rules: [{ value: true, criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
          },
        }),
        flag({ key: 'copy', type: 'string', default: { value: 'hi' }, include_in_mobile: false }),
        flag({ key: 'limits', type: 'json', default: { value: { max: 3 } }, include_in_client: false }),
        flag({ key: 'none', type: 'number' }),
      ]),
    });
    cache = new SnapshotCache(source, pino({ level: 'silent' }));
    telemetry = new TelemetryBuffer();
    service = new EvaluationService({ cache, telemetry, clock });
    ofrep = new OfrepService({ cache, telemetry, clock });
  });

  it('evaluates every available flag with the value keyed by the type', async () => {
    const list = JSON.parse((await service.listEvaluated(principal('server'), null, [])).toString()).data.map(
      (item: { flag: unknown }) => item.flag,
    );
    expect(list).toEqual([
      { key: 'beta', name: 'Flag beta', type: 'boolean', value: { boolean: false } },
      { key: 'copy', name: 'Flag copy', type: 'string', value: { string: 'hi' } },
      { key: 'limits', name: 'Flag limits', type: 'json', value: { json: { max: 3 } } },
    ]);
    const withDefault = JSON.parse(
      (await service.listEvaluated(principal('server'), null, [{ key: 'none', type: 'number', value: 4 }])).toString(),
    ).data;
    expect(withDefault.at(-1).flag).toEqual({ key: 'none', name: 'Flag none', type: 'number', value: { number: 4 } });
  });

  it('evaluates one flag for a context; 404 for unknown and unavailable flags', async () => {
    const context = { type: 'user', identifier: 'u', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] };
    const flagOf = (json: string) => JSON.parse(json).data.flag;
    expect(flagOf(await service.getEvaluated(principal('server'), 'beta', context, []))).toMatchObject({ value: { boolean: true } });
    await expect(service.getEvaluated(principal('server'), 'nope', null, [])).rejects.toThrow(NotFoundError);
    await expect(service.getEvaluated(principal('server'), 'none', null, [])).rejects.toThrow('Feature flag not found.');
    expect(
      flagOf(await service.getEvaluated(principal('server'), 'none', null, [{ key: 'none', type: 'number', value: 1 }])),
    ).toMatchObject({
      value: { number: 1 },
    });
  });

  it('refuses a key whose environment no longer exists', async () => {
    await expect(service.listEvaluated(principal('server', 'env_gone'), null, [])).rejects.toThrow(UnauthorizedError);
  });

  it('records evaluation, default reports and contexts in the buffer', async () => {
    await service.getEvaluated(principal('server'), 'beta', { type: 'user', identifier: 'u' }, [
      { key: 'ghost', type: 'string', value: 'x' },
    ]);
    await service.listEvaluated(principal('server'), null, [{ key: 'beta', type: 'boolean', value: true }]);
    const batch = telemetry.drain((env, platform) => service.flagUlidsFor(env, platform));
    expect(batch.flags.find((f) => f.flagUlid === 'flg_beta')).toMatchObject({ evaluated: 2, lastEvaluatedAt: '2026-03-01T12:00:00.000Z' });
    expect(batch.flags.find((f) => f.flagUlid === 'flg_none')).toMatchObject({ evaluated: 1 });
    const reports = batch.defaultReports.map((r) => `${r.kind}:${r.flagKey}:${r.count}`).sort();
    expect(reports).toEqual([
      'missing_default:beta:1',
      'missing_default:copy:1',
      'missing_default:limits:1',
      'missing_default:none:1',
      'unknown_flag:ghost:1',
    ]);
    expect(batch.contexts.map((c) => `${c.kind}:${c.name}`)).toEqual(['type:user']);
  });

  it('records usage for known flags only', async () => {
    await service.recordUsage(principal('client'), 'beta', 3, null);
    await expect(service.recordUsage(principal('client'), 'ghost', 1, null)).rejects.toThrow(NotFoundError);
    expect(telemetry.drain(() => []).flags).toEqual([expect.objectContaining({ flagUlid: 'flg_beta', used: 3 })]);
  });

  it('serves the payload per key kind with ETags and 304s', async () => {
    await cache.refresh();
    const server = await service.payload(principal('server'), null, [], undefined);
    expect(server.notModified).toBe(false);
    expect(server.etag).toBe(cache.get('env_1')!.serverEtag);
    expect(await service.payload(principal('server'), null, [], server.etag)).toEqual({ notModified: true, etag: server.etag });

    const mobile = await service.payload(principal('mobile'), null, [], undefined);
    expect(mobile.notModified).toBe(false);
    if (mobile.notModified) return;
    expect(payloadFlags(mobile.bytes).map((f) => f.key)).toEqual(['beta', 'limits']);
    const client = await service.payload(principal('client'), null, [], undefined);
    if (client.notModified) return;
    expect(payloadFlags(client.bytes).map((f) => f.key)).toEqual(['beta', 'copy']);
    expect(client.etag).not.toBe(mobile.etag);
    const otherContext = await service.payload(principal('client'), { type: 'user', identifier: 'u' }, [], client.etag);
    expect(otherContext.notModified).toBe(false);
    expect((await service.payload(principal('client'), null, [], client.etag)).notModified).toBe(true);
  });

  it('answers OFREP evaluations with reasons, variants and platform filtering', async () => {
    const context = { type: 'user', identifier: 'u', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] };
    expect(await ofrep.evaluate(principal('server'), 'beta', context)).toEqual({
      key: 'beta',
      reason: 'TARGETING_MATCH',
      variant: 'true',
      value: true,
      // Nothing recorded about the flag's changes: revision 0.
      metadata: { resolved_by: 'rule', type: 'boolean', revision: 0 },
    });
    expect(await ofrep.evaluate(principal('server'), 'copy', null)).toMatchObject({
      reason: 'STATIC',
      metadata: { resolved_by: 'default' },
    });
    await expect(ofrep.evaluate(principal('mobile'), 'copy', null)).rejects.toThrow(OfrepError);
    await expect(ofrep.evaluate(principal('server'), 'none', null)).rejects.toMatchObject({
      errorCode: 'FLAG_NOT_FOUND',
      flagKey: 'none',
    });
    const bulk = await ofrep.evaluateAll(principal('client'), null, undefined);
    expect(bulk.notModified).toBe(false);
    if (bulk.notModified) return;
    expect(bulkFlags(bulk).map((f) => f.key)).toEqual(['beta', 'copy']);
    expect((await ofrep.evaluateAll(principal('client'), null, bulk.etag)).notModified).toBe(true);
    // The ETag is per context: `*` cannot say the client holds this one.
    expect((await ofrep.evaluateAll(principal('client'), null, '*')).notModified).toBe(false);
  });

  it('reports each flag’s own revision in OFREP metadata: a change to one flag moves only its own', async () => {
    await cache.refresh();
    const before = source.environments.get('env_1')!.config.flags;
    source.change(
      'env_1',
      config(
        13,
        before.map((f) => (f.key === 'copy' ? { ...f, name: 'Copy v2' } : f)),
      ),
      ['copy'],
    );
    const revisions = async () => {
      const bulk = await ofrep.evaluateAll(principal('server'), null, undefined);
      if (bulk.notModified) throw new Error('expected a body');
      return bulkFlags(bulk).map((f) => ('metadata' in f ? [f.key, f.metadata.revision] : [f.key]));
    };
    // The snapshot updated with the changed flag only, and one loaded whole, agree.
    await cache.refresh();
    expect(source.flagLoads).toBe(1);
    expect(await revisions()).toEqual([
      ['beta', 0],
      ['copy', 13],
      ['limits', 0],
    ]);
    const fresh = new OfrepService({
      cache: new SnapshotCache(source, pino({ level: 'silent' })),
      telemetry: new TelemetryBuffer(),
      clock,
    });
    expect((await fresh.evaluate(principal('server'), 'copy', null)).metadata.revision).toBe(13);
    expect((await fresh.evaluate(principal('server'), 'beta', null)).metadata.revision).toBe(0);
  });

  it('previews for management at the current revision, unavailable when nothing is servable', async () => {
    expect(await service.evaluateForManagement('env_1', { key: 'none', name: 'None', type: 'number' }, null)).toEqual({
      key: 'none',
      name: 'None',
      type: 'number',
      value: null,
      resolved_by: 'unavailable',
      why: { target: null, rollout: null, prerequisiteFailed: null, rules: [] },
    });
    expect(await service.evaluateForManagement('env_1', { key: 'beta', name: 'Beta', type: 'boolean' }, null)).toMatchObject({
      value: false,
      resolved_by: 'target',
      why: { target: 'serving', rollout: null },
    });
    expect(telemetry.size).toBe(0);
  });

  it('writes OFREP variants in display form', () => {
    const o = (type: 'boolean' | 'number' | 'string' | 'json', value: unknown) =>
      variantOf({ key: 'k', name: 'k', type, value: value as never, resolved_by: 'target' });
    expect(o('boolean', false)).toBe('false');
    expect(o('number', 1.5)).toBe('1.5');
    expect(o('string', 'plain')).toBe('plain');
    expect(o('json', { a: [1] })).toBe('{"a":[1]}');
    expect(o('json', null)).toBe('null');
  });
});
