import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { FakeInsightsStore } from '../../fakes/insights-store.js';
import { InsightsService } from '../../../src/features/insights/service.js';
import { NotFoundError } from '../../../src/http/errors.js';
import { principal } from '../admin/principals.js';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

describe('InsightsService', () => {
  let store: FakeInsightsStore;
  let service: InsightsService;
  let described: AuditSubject[];
  const audit = { describe: (s: AuditSubject) => described.push(s) };
  const params = { projectKey: 'shop', environmentKey: 'production' };

  beforeEach(() => {
    store = new FakeInsightsStore();
    service = new InsightsService({ store, clock: { now: () => NOW } });
    described = [];
    const flag = (key: string, createdDaysAgo: number, permanent = false) => ({
      ulid: `flg_${key}`,
      key,
      name: key.toUpperCase(),
      type: 'boolean' as const,
      permanent,
      created_at: daysAgo(createdDaysAgo),
      updated_at: daysAgo(createdDaysAgo),
    });
    store.flags = [
      flag('fresh', 1),
      flag('unused', 90),
      flag('kept', 90, true),
      flag('used-old', 90),
      flag('used-new', 90),
      flag('used-older', 90),
    ];
    const used = (ulid: string, at: string) =>
      store.telemetry.set(`${ulid}|env_1`, {
        last_retrieved_at: null,
        last_used_at: at,
        last_evaluated_at: null,
        last_updated_at: null,
        retrieved_count: 0,
        used_count: 1,
        evaluated_count: 0,
      });
    used('flg_used-old', daysAgo(40));
    used('flg_used-older', daysAgo(60));
    used('flg_used-new', daysAgo(2));
  });

  it('reports a flag’s telemetry with last_updated_at from management changes', async () => {
    store.updates.set('flg_used-old|env_1', daysAgo(3));
    const insights = await service.flagInsights(principal(), { ...params, flagKey: 'used-old' }, audit);
    expect(insights).toEqual({
      flag_key: 'used-old',
      environment_key: 'production',
      last_retrieved_at: null,
      last_used_at: daysAgo(40),
      last_evaluated_at: null,
      last_updated_at: daysAgo(3),
      retrieved_count: 0,
      used_count: 1,
      evaluated_count: 0,
    });
    expect(described[0]).toMatchObject({ subjectType: 'flag', subjectUlid: 'flg_used-old', environmentUlid: 'env_1' });
    const empty = await service.flagInsights(principal(), { ...params, flagKey: 'fresh' }, audit);
    expect(empty).toMatchObject({ last_used_at: null, used_count: 0, last_updated_at: daysAgo(1) });
  });

  it('lists stale flags: never used first, then by last use; permanent and recent ones left out', async () => {
    const stale = await service.staleFlags(principal(), params, 30, audit);
    expect(stale.map((f) => f.key)).toEqual(['unused', 'used-older', 'used-old']);
    expect(stale[0]).toEqual({ key: 'unused', name: 'UNUSED', last_used_at: null, last_updated_at: daysAgo(90), created_at: daysAgo(90) });
    expect((await service.staleFlags(principal(), params, 50, audit)).map((f) => f.key)).toEqual(['unused', 'used-older']);
    expect(await service.staleFlags(principal(), params, 100, audit)).toEqual([]);
    expect((await service.staleFlags(principal(), params, 1, audit)).map((f) => f.key)).toContain('used-new');
  });

  it('reports missing defaults of existing flags and declared defaults of unknown keys, newest first', async () => {
    store.reports.set('env_1', [
      { kind: 'missing_default', flag_key: 'unused', declared_type: null, count: 2, last_seen_at: daysAgo(5) },
      { kind: 'missing_default', flag_key: 'fresh', declared_type: null, count: 1, last_seen_at: daysAgo(1) },
      { kind: 'missing_default', flag_key: 'deleted-since', declared_type: null, count: 1, last_seen_at: daysAgo(1) },
      { kind: 'unknown_flag', flag_key: 'ghost', declared_type: 'string', count: 4, last_seen_at: daysAgo(2) },
      { kind: 'unknown_flag', flag_key: 'fresh', declared_type: 'boolean', count: 1, last_seen_at: daysAgo(9) },
    ]);
    expect(await service.defaultValueReports(principal(), params, audit)).toEqual({
      missing_defaults: [
        { flag_key: 'fresh', count: 1, last_seen_at: daysAgo(1) },
        { flag_key: 'unused', count: 2, last_seen_at: daysAgo(5) },
      ],
      unknown_flags: [{ flag_key: 'ghost', declared_type: 'string', count: 4, last_seen_at: daysAgo(2) }],
    });
  });

  it('lists context types and attributes by frequency with at most 100 values each', async () => {
    store.observations.set('env_1', [
      { kind: 'type', name: 'user', value: '', count: 10 },
      { kind: 'type', name: 'device', value: '', count: 30 },
      { kind: 'attribute', name: 'plan', value: '', count: 5 },
      { kind: 'attribute', name: 'country', value: '', count: 9 },
      ...Array.from({ length: 150 }, (_, i) => ({ kind: 'value' as const, name: 'country', value: `c${i}`, count: i })),
      { kind: 'value', name: 'plan', value: 'pro', count: 4 },
      { kind: 'value', name: 'plan', value: 'free', count: 4 },
    ]);
    const result = await service.contextAttributes(principal(), params, audit);
    expect(result.context_types).toEqual([
      { type: 'device', count: 30 },
      { type: 'user', count: 10 },
    ]);
    expect(result.attributes.map((a) => a.key)).toEqual(['country', 'plan']);
    expect(result.attributes[0]!.values).toHaveLength(100);
    expect(result.attributes[0]!.values[0]).toEqual({ value: 'c149', count: 149 });
    expect(result.attributes[1]!.values).toEqual([
      { value: 'free', count: 4 },
      { value: 'pro', count: 4 },
    ]);
  });

  it('reports unknown or ungranted paths as not found', async () => {
    await expect(service.staleFlags(principal(), { projectKey: 'nope', environmentKey: 'production' }, 30, audit)).rejects.toThrow(
      NotFoundError,
    );
    await expect(service.flagInsights(principal(), { ...params, flagKey: 'nope' }, audit)).rejects.toThrow(NotFoundError);
    const restricted = principal({ access: new ResourceAccess(new Set(['prj_other']), null) });
    await expect(service.contextAttributes(restricted, params, audit)).rejects.toThrow(NotFoundError);
  });
});
