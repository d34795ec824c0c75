import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { FakeFlagValueStore } from '../../fakes/flag-values-store.js';
import { FlagValueService } from '../../../src/features/flag-values/service.js';
import type { Caller } from '../../../src/features/flags/service.js';
import type { FlagType } from '../../../src/features/flags/store-types.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';

let tick = 0;
const clock = { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, tick++)) };

function recordingCaller(access = ResourceAccess.unrestricted()) {
  const committed: AuditSubject[] = [];
  const caller: Caller = {
    access,
    audit: {
      commit: async (_trx, subject) => {
        committed.push(subject);
      },
      describe: () => {},
    },
  };
  return { caller, committed };
}

describe('FlagValueService', () => {
  let store: FakeFlagValueStore;
  let service: FlagValueService;
  const project = { ulid: 'prj_A', key: 'shop', name: 'Shop' };
  const env = {
    ulid: 'env_P',
    key: 'production',
    name: 'Production',
    project_ulid: 'prj_A',
    comments_required: false,
    confirmation_required: false,
  };
  const flagOf = (key: string, type: FlagType) => ({ ulid: `flg_${key}`, key, name: key, type, project_ulid: 'prj_A' });
  const path = (flagKey: string, environmentKey?: string) => ({ projectKey: 'shop', flagKey, environmentKey });

  beforeEach(() => {
    store = new FakeFlagValueStore();
    store.state.projects.push(project);
    store.state.environments.push(env);
    store.state.flags.push(flagOf('num', 'number'), flagOf('str', 'string'), flagOf('js', 'json'), flagOf('bool', 'boolean'));
    store.state.revisions[project.ulid] = 1;
    service = new FlagValueService({ store, clock });
  });

  it('makes the first value the default and later ones not', async () => {
    const { caller, committed } = recordingCaller();
    const first = await service.create(caller, path('num'), '1.50');
    expect(first).toMatchObject({ display: '1.5', value: 1.5, default: true });
    expect(first.ulid).toMatch(/^val_/);
    expect(store.state.revisions[project.ulid]).toBe(2);
    const second = await service.create(caller, path('num', 'production'), '1e3');
    expect(second).toMatchObject({ display: '1000', value: 1000, default: false });
    // A value that is not the default changes nothing served.
    expect(store.state.revisions[project.ulid]).toBe(2);
    expect(committed.map((c) => [c.action, c.subjectType])).toEqual([
      ['flag_value.created', 'flag_value'],
      ['flag_value.created', 'flag_value'],
    ]);
    expect(committed[1]?.environmentUlid).toBe(env.ulid);
    expect((await service.list(caller, path('num'))).map((v) => v.display)).toEqual(['1.5', '1000']);
  });

  it('refuses a display that does not fit the type (422 on display) and stores nothing', async () => {
    const { caller } = recordingCaller();
    for (const [flag, display] of [
      ['num', 'abc'],
      ['num', '+1'],
      ['js', '{bad'],
      ['bool', 'yes'],
    ] as const) {
      const error = await service.create(caller, path(flag), display).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toHaveProperty('display');
    }
    expect(store.state.values).toEqual([]);
  });

  it('refuses a value equal to another after normalisation', async () => {
    const { caller } = recordingCaller();
    await service.create(caller, path('js'), '{"a": 1}');
    const error = await service.create(caller, path('js'), '{ "a" : 1 }').catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toHaveProperty('display');
    const other = await service.create(caller, path('js'), '{"a": 2}');
    const clash = await service.update(caller, path('js'), other.ulid, '{"a":1}').catch((e) => e);
    expect(clash).toBeInstanceOf(ValidationError);
    expect(store.state.values.map((v) => v.display)).toEqual(['{"a":1}', '{"a":2}']);
  });

  it('404s an environment that does not exist (environment path) and an unknown value', async () => {
    const { caller } = recordingCaller();
    await expect(service.create(caller, path('str', 'staging'), 'x')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.update(caller, path('str'), 'val_nope', 'x')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.setDefault(caller, path('str', 'production'), 'val_nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.delete(caller, path('str'), 'val_nope')).rejects.toBeInstanceOf(NotFoundError);
    expect(store.state.values).toEqual([]);
  });

  it('does not reach a value through another flag', async () => {
    const { caller } = recordingCaller();
    const value = await service.create(caller, path('str'), 'x');
    await expect(service.setDefault(caller, path('num'), value.ulid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.delete(caller, path('num'), value.ulid)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sets the default and clears the previous one', async () => {
    const { caller, committed } = recordingCaller();
    const a = await service.create(caller, path('str'), 'a');
    const b = await service.create(caller, path('str'), 'b');
    const revision = store.state.revisions[project.ulid] as number;
    const result = await service.setDefault(caller, path('str', 'production'), b.ulid);
    expect(result).toMatchObject({ ulid: b.ulid, default: true });
    expect((await service.list(caller, path('str'))).map((v) => [v.display, v.default])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(store.state.revisions[project.ulid]).toBe(revision + 1);
    // Again: nothing changes, nothing is bumped.
    await service.setDefault(caller, path('str'), b.ulid);
    expect(store.state.revisions[project.ulid]).toBe(revision + 1);
    expect(committed.at(-1)).toMatchObject({ action: 'flag_value.default_set', subjectUlid: b.ulid });
    expect(a.default).toBe(true);
  });

  it('updates a display, bumping revisions only when the value may be served', async () => {
    const { caller } = recordingCaller();
    const a = await service.create(caller, path('str'), 'a');
    const b = await service.create(caller, path('str'), 'b');
    let revision = store.state.revisions[project.ulid] as number;
    const updated = await service.update(caller, path('str'), b.ulid, 'c');
    expect(updated).toMatchObject({ ulid: b.ulid, display: 'c', value: 'c', default: false });
    expect(store.state.revisions[project.ulid]).toBe(revision);
    await service.update(caller, path('str'), a.ulid, 'a2');
    expect(store.state.revisions[project.ulid]).toBe(++revision);
    store.state.targets.push({ value_ulid: b.ulid, status: 'published', environment_key: 'production' });
    await service.update(caller, path('str'), b.ulid, 'd');
    expect(store.state.revisions[project.ulid]).toBe(++revision);
    // Unchanged display: allowed (same value).
    await expect(service.update(caller, path('str'), b.ulid, 'd')).resolves.toMatchObject({ display: 'd' });
  });

  describe('delete', () => {
    it('refuses the default value', async () => {
      const { caller, committed } = recordingCaller();
      const a = await service.create(caller, path('str'), 'a');
      await expect(service.delete(caller, path('str'), a.ulid)).rejects.toThrow(/default/);
      expect(store.state.values).toHaveLength(1);
      expect(committed).toHaveLength(1);
    });

    it.each([
      ['published', 'target', /1 target \(published in production\)/],
      ['scheduled', 'target', /scheduled in production/],
      ['draft', 'target', /draft in production/],
      ['expired', 'target', /expired in production/],
      ['draft', 'rule', /1 targeting rule \(draft target in production\)/],
    ])('refuses a value used by a %s %s, naming why', async (status, kind, message) => {
      const { caller } = recordingCaller();
      await service.create(caller, path('str'), 'a');
      const b = await service.create(caller, path('str'), 'b');
      if (kind === 'target') store.state.targets.push({ value_ulid: b.ulid, status, environment_key: 'production' });
      else store.state.rules.push({ value_ulid: b.ulid, target_status: status, environment_key: 'production' });
      const error = await service.delete(caller, path('str'), b.ulid).catch((e) => e);
      expect(error).toBeInstanceOf(UnprocessableError);
      expect((error as Error).message).toMatch(message);
      expect(store.state.values).toHaveLength(2);
    });

    it('deletes an unused value', async () => {
      const { caller, committed } = recordingCaller();
      await service.create(caller, path('bool'), 'true');
      const f = await service.create(caller, path('bool'), 'false');
      await service.delete(caller, path('bool'), f.ulid);
      expect(store.state.values.map((v) => v.display)).toEqual(['true']);
      expect(committed.at(-1)).toMatchObject({ action: 'flag_value.deleted', subjectUlid: f.ulid });
    });
  });
});
