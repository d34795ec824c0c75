import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { evaluateFlag } from '../../../src/engine/index.js';
import { FakeConfigSource } from '../../fakes/evaluation-store.js';
import { SnapshotCache } from '../../../src/runtime/snapshot-cache.js';
import { config, flag } from './helpers.js';

const logger = pino({ level: 'silent' });

describe('SnapshotCache', () => {
  it('builds every environment on refresh and serves them without loading again', async () => {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(1, [flag({ key: 'a', type: 'boolean', default: { value: true } })]) });
    source.set({ ulid: 'env_2', config: config(7, []) });
    const cache = new SnapshotCache(source, logger);
    expect(cache.get('env_1')).toBeUndefined();
    await cache.refresh();
    expect(cache.size).toBe(2);
    expect(source.loads).toBe(2);
    const entry = cache.get('env_1')!;
    expect(evaluateFlag(entry.snapshot, 'a', null)).toMatchObject({ value: true, resolved_by: 'default' });
    expect(entry.serverEtag).toMatch(/^"srv-1-[0-9a-f]{8}"$/);
    expect(JSON.parse(entry.serverPayloadJson).data).toMatchObject({ kind: 'server', etag: entry.serverEtag, revision: 1 });
    await cache.refresh();
    expect(source.loads).toBe(2);
  });

  it('rebuilds an environment whose revision moved, tells listeners, and forgets deleted ones', async () => {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(1, []) });
    const cache = new SnapshotCache(source, logger);
    const events: Array<[string, number | undefined]> = [];
    cache.onChange((ulid, entry) => events.push([ulid, entry?.revision]));
    await cache.refresh();
    const first = cache.get('env_1')!;
    source.set({ ulid: 'env_1', config: config(2, [flag({ key: 'b', type: 'string', default: { value: 'x' } })]) });
    await cache.refresh();
    const second = cache.get('env_1')!;
    expect(second.revision).toBe(2);
    expect(second.serverEtag).not.toBe(first.serverEtag);
    source.delete('env_1');
    await cache.refresh();
    expect(cache.get('env_1')).toBeUndefined();
    expect(events).toEqual([
      ['env_1', 1],
      ['env_1', 2],
      ['env_1', undefined],
    ]);
  });

  it('loads an unknown environment on first use, and getFresh catches up with the database', async () => {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(3, []) });
    const cache = new SnapshotCache(source, logger);
    expect((await cache.getOrLoad('env_1'))?.revision).toBe(3);
    expect(await cache.getOrLoad('env_nope')).toBeUndefined();
    source.set({ ulid: 'env_1', config: config(4, []) });
    expect(cache.get('env_1')?.revision).toBe(3);
    expect((await cache.getFresh('env_1'))?.revision).toBe(4);
    expect(await cache.getFresh('env_nope')).toBeUndefined();
  });

  it('shares one load between concurrent callers and never goes back to an older revision', async () => {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(5, []) });
    const cache = new SnapshotCache(source, logger);
    await Promise.all([cache.getOrLoad('env_1'), cache.getOrLoad('env_1'), cache.refresh()]);
    expect(source.loads).toBe(1);
    source.set({ ulid: 'env_1', config: config(4, []) });
    await cache.refresh();
    expect(cache.get('env_1')?.revision).toBe(5);
  });

  it('gives equal ETags to equal configurations loaded separately (instances agree)', async () => {
    const make = async () => {
      const source = new FakeConfigSource();
      source.set({ ulid: 'env_1', config: config(9, [flag({ key: 'a', type: 'number', default: { value: 1 } })]) });
      const cache = new SnapshotCache(source, logger);
      await cache.refresh();
      return cache.get('env_1')!.serverEtag;
    };
    expect(await make()).toBe(await make());
  });

  it('reports what changed, runs a poll after the current one, and knows when an announcement is news', async () => {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(1, []) });
    const cache = new SnapshotCache(source, logger);
    expect(await cache.refresh()).toEqual([{ ulid: 'env_1', revision: 1 }]);
    expect(await cache.refresh()).toEqual([]);
    expect(cache.isBehind([{ ulid: 'env_1', revision: 1 }])).toBe(false);
    expect(cache.isBehind([{ ulid: 'env_1', revision: 2 }])).toBe(true);
    expect(cache.isBehind([{ ulid: 'env_new', revision: 1 }])).toBe(true);
    expect(cache.isBehind([{ ulid: 'env_1', revision: -1 }])).toBe(true);
    expect(cache.isBehind([{ ulid: 'env_gone', revision: -1 }])).toBe(false);

    // A change committed while a poll runs is seen by the poll queued after it.
    const running = cache.refresh();
    source.set({ ulid: 'env_1', config: config(2, []) });
    const after = cache.refreshAfterCurrent();
    await running;
    expect(await after).toEqual([{ ulid: 'env_1', revision: 2 }]);
    source.delete('env_1');
    expect(await cache.refreshAfterCurrent()).toEqual([{ ulid: 'env_1', revision: -1 }]);
  });
});
