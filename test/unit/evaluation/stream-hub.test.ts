import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeConfigSource } from '../../fakes/evaluation-store.js';
import { SnapshotCache } from '../../../src/runtime/snapshot-cache.js';
import { StreamHub, etagEvent } from '../../../src/runtime/stream-hub.js';
import { config } from './helpers.js';

class Sink {
  chunks: string[] = [];
  ended = false;
  write(text: string) {
    this.chunks.push(text);
  }
  end() {
    this.ended = true;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('StreamHub', () => {
  let hub: StreamHub | undefined;
  afterEach(async () => {
    await hub?.stop();
  });

  async function setup(heartbeatMs = 60_000) {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(1, []) });
    const cache = new SnapshotCache(source, pino({ level: 'silent' }));
    await cache.refresh();
    hub = new StreamHub(cache, { heartbeatMs, authCheckMs: 10 });
    hub.start();
    return { source, cache, hub };
  }

  it('announces the current ETag, then a new one on each change, and nothing when it did not change', async () => {
    const { source, cache, hub } = await setup();
    const sink = new Sink();
    const close = hub.open({ environmentUlid: 'env_1', sink, etagFor: (e) => e.serverEtag, authorized: () => true }, cache.get('env_1')!);
    expect(sink.chunks).toEqual([etagEvent(cache.get('env_1')!.serverEtag)]);
    source.set({ ulid: 'env_1', config: config(2, []) });
    await cache.refresh();
    expect(sink.chunks).toHaveLength(2);
    expect(sink.chunks[1]).toBe(`event: etag\ndata: {"etag":${JSON.stringify(cache.get('env_1')!.serverEtag)}}\n\n`);
    const constant = new Sink();
    hub.open({ environmentUlid: 'env_1', sink: constant, etagFor: () => '"same"', authorized: () => true }, cache.get('env_1')!);
    source.set({ ulid: 'env_1', config: config(3, []) });
    await cache.refresh();
    expect(constant.chunks).toHaveLength(1);
    close();
    expect(hub.size).toBe(1);
  });

  it('sends heartbeat comments', async () => {
    const { cache, hub } = await setup(20);
    const sink = new Sink();
    hub.open({ environmentUlid: 'env_1', sink, etagFor: (e) => e.serverEtag, authorized: () => true }, cache.get('env_1')!);
    await sleep(70);
    expect(sink.chunks.filter((c) => c === ': heartbeat\n\n').length).toBeGreaterThanOrEqual(2);
  });

  it('ends streams whose key was revoked or whose environment was deleted, and all of them on stop', async () => {
    const { source, cache, hub } = await setup();
    let authorized = true;
    const revoked = new Sink();
    hub.open({ environmentUlid: 'env_1', sink: revoked, etagFor: (e) => e.serverEtag, authorized: () => authorized }, cache.get('env_1')!);
    const other = new Sink();
    hub.open({ environmentUlid: 'env_1', sink: other, etagFor: (e) => e.serverEtag, authorized: () => true }, cache.get('env_1')!);
    authorized = false;
    await sleep(40);
    expect(revoked.ended).toBe(true);
    expect(other.ended).toBe(false);
    source.delete('env_1');
    await cache.refresh();
    expect(other.ended).toBe(true);
    expect(hub.size).toBe(0);

    source.set({ ulid: 'env_1', config: config(5, []) });
    await cache.refresh();
    const last = new Sink();
    hub.open({ environmentUlid: 'env_1', sink: last, etagFor: (e) => e.serverEtag, authorized: () => true }, cache.get('env_1')!);
    await hub.stop();
    expect(last.ended).toBe(true);
    const late = new Sink();
    hub.open({ environmentUlid: 'env_1', sink: late, etagFor: (e) => e.serverEtag, authorized: () => true }, cache.get('env_1')!);
    expect(late.ended).toBe(true);
    expect(late.chunks).toEqual([]);
  });
});
