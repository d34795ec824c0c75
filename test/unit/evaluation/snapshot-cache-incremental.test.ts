import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { evaluateFlag, type CompiledFlag, type Context } from '../../../src/engine/index.js';
import { FakeConfigSource } from '../../fakes/evaluation-store.js';
import { buildEnvironmentSnapshot } from '../../../src/runtime/environment-snapshot.js';
import { SnapshotCache } from '../../../src/runtime/snapshot-cache.js';
import { config, flag } from './helpers.js';

const logger = pino({ level: 'silent' });

/** A string flag answering `value` by default, or `ruled` for users whose plan is "pro". */
function stringFlag(key: string, value: string, ruled = `${value}-pro`): CompiledFlag {
  return flag({
    key,
    type: 'string',
    default: { value },
    serving: {
      value,
      rules: [{ value: ruled, criteria: [{ selector: 'attribute', sub_selector: 'plan', comparer: 'equal', values: ['pro'] }] }],
    },
  });
}

const pro: Context = { type: 'user', identifier: 'u1', attributes: [{ key: 'plan', values: [{ value: 'pro' }] }] };

describe('SnapshotCache, incremental rebuilds', () => {
  it('reloads only the changed flags, keeps the others shared, and equals a full reload', async () => {
    const source = new FakeConfigSource();
    const flags = ['a', 'c', 'e'].map((k) => stringFlag(k, k));
    source.set({ ulid: 'env_1', config: config(1, flags) });
    const cache = new SnapshotCache(source, logger);
    await cache.refresh();
    const first = cache.get('env_1')!;
    expect(source.loads).toBe(1);

    // Revision 2 changes "c", adds "b" and "d", removes "e".
    const next = [stringFlag('a', 'a'), stringFlag('b', 'b'), stringFlag('c', 'c2'), stringFlag('d', 'd')];
    source.change('env_1', config(2, next), ['b', 'c', 'd', 'e']);
    await cache.refresh();
    const second = cache.get('env_1')!;
    expect(source.loads).toBe(1);
    expect(source.flagLoads).toBe(1);
    expect(second.revision).toBe(2);
    expect(second.config.flags.map((f) => f.key)).toEqual(['a', 'b', 'c', 'd']);
    expect(second.config.flags[0]).toBe(first.config.flags[0]);
    expect(second.snapshot.keys()).toEqual(['a', 'b', 'c', 'd']);
    expect(evaluateFlag(second.snapshot, 'c', pro)).toMatchObject({ value: 'c2-pro', resolved_by: 'rule' });
    expect(evaluateFlag(second.snapshot, 'e', pro)?.resolved_by).not.toBe('rule');
    expect([...second.flagUlids.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);

    // What another instance builds from the same rows in one full load is the same thing.
    const full = buildEnvironmentSnapshot(source.environments.get('env_1')!);
    expect(second.configDigest).toBe(full.configDigest);
    expect(second.serverEtag).toBe(full.serverEtag);
    expect(second.serverPayloadJson).toBe(full.serverPayloadJson);
  });

  it('folds several revisions into one delta and falls back to a full load when one is unknown', async () => {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(1, [stringFlag('a', 'a'), stringFlag('b', 'b')]) });
    const cache = new SnapshotCache(source, logger);
    await cache.refresh();
    source.change('env_1', config(2, [stringFlag('a', 'a2'), stringFlag('b', 'b')]), ['a']);
    source.change('env_1', config(3, [stringFlag('a', 'a2'), stringFlag('b', 'b3')]), ['b']);
    await cache.refresh();
    expect(source.flagLoads).toBe(1);
    expect(source.loads).toBe(1);
    const entry = cache.get('env_1')!;
    expect(evaluateFlag(entry.snapshot, 'a', null)?.value).toBe('a2');
    expect(evaluateFlag(entry.snapshot, 'b', null)?.value).toBe('b3');

    // Revision 4 is not recorded as a flag change (e.g. a segment changed): the whole environment.
    source.set({ ulid: 'env_1', config: config(4, [stringFlag('a', 'a4')]) });
    await cache.refresh();
    expect(source.loads).toBe(2);
    expect(cache.get('env_1')!.snapshot.keys()).toEqual(['a']);
  });

  it('compiles a changed flag whose criteria use an attribute no other flag tests', async () => {
    const source = new FakeConfigSource();
    source.set({ ulid: 'env_1', config: config(1, [stringFlag('a', 'a')]) });
    const cache = new SnapshotCache(source, logger);
    await cache.refresh();
    const country = flag({
      key: 'b',
      type: 'string',
      default: { value: 'b' },
      serving: {
        value: 'b',
        rules: [{ value: 'b-de', criteria: [{ selector: 'attribute', sub_selector: 'country', comparer: 'equal', values: ['DE'] }] }],
      },
    });
    source.change('env_1', config(2, [stringFlag('a', 'a'), country]), ['b']);
    await cache.refresh();
    const entry = cache.get('env_1')!;
    const german: Context = {
      type: 'user',
      identifier: 'u2',
      attributes: [
        { key: 'country', values: [{ value: 'DE' }] },
        { key: 'plan', values: [{ value: 'pro' }] },
      ],
    };
    expect(evaluateFlag(entry.snapshot, 'b', german)).toMatchObject({ value: 'b-de', resolved_by: 'rule' });
    expect(evaluateFlag(entry.snapshot, 'a', german)).toMatchObject({ value: 'a-pro', resolved_by: 'rule' });
  });
});
