import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditSubject } from '../../../src/audit/audit-trail.js';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { FakeFlagValueStore } from '../../fakes/flag-values-store.js';
import { fakeDb } from '../../fakes/transactor.js';
import { FlagValueService } from '../../../src/features/flag-values/service.js';
import type { FlagType } from '../../../src/features/flags/store-types.js';
import type { Auditor } from '../../../src/features/shared/transactions.js';
import { principal as principalWith } from '../admin/principals.js';
import { NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';

let tick = 0;
const clock = { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, tick++)) };

/** A principal with the given reach, and an audit trail that records what the service commits. */
function recordingCaller(access = ResourceAccess.unrestricted()) {
  const committed: AuditSubject[] = [];
  const audit: Auditor = {
    commit: async (_trx, subject) => {
      committed.push(subject);
    },
    describe: () => {},
    fresh: () => audit,
  };
  return { principal: principalWith({ access }), audit, committed };
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
    service = new FlagValueService({ db: fakeDb, tx: store.tx, lookups: store.lookups, store, clock });
  });

  it('makes the first value the default and later ones not', async () => {
    const { principal, audit, committed } = recordingCaller();
    const first = await service.create(principal, path('num'), '1.50', audit);
    expect(first).toMatchObject({ display: '1.5', value: 1.5, default: true });
    expect(first.ulid).toMatch(/^val_/);
    expect(store.state.revisions[project.ulid]).toBe(2);
    const second = await service.create(principal, path('num', 'production'), '1e3', audit);
    expect(second).toMatchObject({ display: '1000', value: 1000, default: false });
    // A value that is not the default changes nothing served.
    expect(store.state.revisions[project.ulid]).toBe(2);
    expect(committed.map((c) => [c.action, c.subjectType])).toEqual([
      ['flag_value.created', 'flag_value'],
      ['flag_value.created', 'flag_value'],
    ]);
    expect(committed[1]?.environmentUlid).toBe(env.ulid);
    expect((await service.list(principal, path('num'), audit)).map((v) => v.display)).toEqual(['1.5', '1000']);
  });

  it('refuses a display that does not fit the type (422 on display) and stores nothing', async () => {
    const { principal, audit } = recordingCaller();
    for (const [flag, display] of [
      ['num', 'abc'],
      ['num', '+1'],
      ['js', '{bad'],
      ['bool', 'yes'],
    ] as const) {
      const error = await service.create(principal, path(flag), display, audit).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toHaveProperty('display');
    }
    expect(store.state.values).toEqual([]);
  });

  it('refuses a value equal to another after normalisation', async () => {
    const { principal, audit } = recordingCaller();
    await service.create(principal, path('js'), '{"a": 1}', audit);
    const error = await service.create(principal, path('js'), '{ "a" : 1 }', audit).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toHaveProperty('display');
    const other = await service.create(principal, path('js'), '{"a": 2}', audit);
    const clash = await service.update(principal, path('js'), other.ulid, '{"a":1}', audit).catch((e) => e);
    expect(clash).toBeInstanceOf(ValidationError);
    expect(store.state.values.map((v) => v.display)).toEqual(['{"a":1}', '{"a":2}']);
  });

  it('404s an environment that does not exist (environment path) and an unknown value', async () => {
    const { principal, audit } = recordingCaller();
    await expect(service.create(principal, path('str', 'staging'), 'x', audit)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.update(principal, path('str'), 'val_nope', 'x', audit)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.setDefault(principal, path('str', 'production'), 'val_nope', audit)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.delete(principal, path('str'), 'val_nope', audit)).rejects.toBeInstanceOf(NotFoundError);
    expect(store.state.values).toEqual([]);
  });

  it('does not reach a value through another flag', async () => {
    const { principal, audit } = recordingCaller();
    const value = await service.create(principal, path('str'), 'x', audit);
    await expect(service.setDefault(principal, path('num'), value.ulid, audit)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.delete(principal, path('num'), value.ulid, audit)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sets the default and clears the previous one', async () => {
    const { principal, audit, committed } = recordingCaller();
    const a = await service.create(principal, path('str'), 'a', audit);
    const b = await service.create(principal, path('str'), 'b', audit);
    const revision = store.state.revisions[project.ulid] as number;
    const result = await service.setDefault(principal, path('str', 'production'), b.ulid, audit);
    expect(result).toMatchObject({ ulid: b.ulid, default: true });
    expect((await service.list(principal, path('str'), audit)).map((v) => [v.display, v.default])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(store.state.revisions[project.ulid]).toBe(revision + 1);
    // Again: nothing changes, nothing is bumped.
    await service.setDefault(principal, path('str'), b.ulid, audit);
    expect(store.state.revisions[project.ulid]).toBe(revision + 1);
    expect(committed.at(-1)).toMatchObject({ action: 'flag_value.default_set', subjectUlid: b.ulid });
    expect(a.default).toBe(true);
  });

  it('updates a display, bumping revisions only when the value may be served', async () => {
    const { principal, audit } = recordingCaller();
    const a = await service.create(principal, path('str'), 'a', audit);
    const b = await service.create(principal, path('str'), 'b', audit);
    let revision = store.state.revisions[project.ulid] as number;
    const updated = await service.update(principal, path('str'), b.ulid, 'c', audit);
    expect(updated).toMatchObject({ ulid: b.ulid, display: 'c', value: 'c', default: false });
    expect(store.state.revisions[project.ulid]).toBe(revision);
    await service.update(principal, path('str'), a.ulid, 'a2', audit);
    expect(store.state.revisions[project.ulid]).toBe(++revision);
    store.state.targets.push({ value_ulid: b.ulid, status: 'published', environment_key: 'production' });
    await service.update(principal, path('str'), b.ulid, 'd', audit);
    expect(store.state.revisions[project.ulid]).toBe(++revision);
    // Unchanged display: allowed (same value).
    await expect(service.update(principal, path('str'), b.ulid, 'd', audit)).resolves.toMatchObject({ display: 'd' });
  });

  describe('delete', () => {
    it('refuses the default value', async () => {
      const { principal, audit, committed } = recordingCaller();
      const a = await service.create(principal, path('str'), 'a', audit);
      await expect(service.delete(principal, path('str'), a.ulid, audit)).rejects.toThrow(/default/);
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
      const { principal, audit } = recordingCaller();
      await service.create(principal, path('str'), 'a', audit);
      const b = await service.create(principal, path('str'), 'b', audit);
      if (kind === 'target') store.state.targets.push({ value_ulid: b.ulid, status, environment_key: 'production' });
      else store.state.rules.push({ value_ulid: b.ulid, target_status: status, environment_key: 'production' });
      const error = await service.delete(principal, path('str'), b.ulid, audit).catch((e) => e);
      expect(error).toBeInstanceOf(UnprocessableError);
      expect((error as Error).message).toMatch(message);
      expect(store.state.values).toHaveLength(2);
    });

    it('deletes an unused value', async () => {
      const { principal, audit, committed } = recordingCaller();
      await service.create(principal, path('bool'), 'true', audit);
      const f = await service.create(principal, path('bool'), 'false', audit);
      await service.delete(principal, path('bool'), f.ulid, audit);
      expect(store.state.values.map((v) => v.display)).toEqual(['true']);
      expect(committed.at(-1)).toMatchObject({ action: 'flag_value.deleted', subjectUlid: f.ulid });
    });
  });
});
