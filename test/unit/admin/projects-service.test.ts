import { describe, expect, it } from 'vitest';
import { ResourceAccess } from '../../../src/auth/principal.js';
import { ForbiddenError, NotFoundError, UnprocessableError, ValidationError } from '../../../src/http/errors.js';
import { granted, principal, recordingAudit, world } from './world.js';

const owner = principal();

describe('ProjectService.create', () => {
  it('creates development and production by default and commits one audit entry', async () => {
    const w = world();
    const audit = recordingAudit();
    const project = await w.projects.create(owner, { key: 'shop', name: 'Shop' }, audit);
    expect(project).toMatchObject({ key: 'shop', name: 'Shop', description: '', created_at: '2026-03-04T05:06:07.000Z' });
    expect(project.ulid).toMatch(/^prj_/);
    const envs = [...w.stores.environments.rows.values()];
    expect(envs.map((e) => [e.key, e.name, e.color, e.comments_required, e.confirmation_required, e.description])).toEqual([
      ['development', 'Development', '#808080', false, false, null],
      ['production', 'Production', '#808080', false, false, null],
    ]);
    expect(audit.committed).toEqual([
      { action: 'project.created', subjectType: 'project', subjectUlid: project.ulid, subjectLabel: 'shop', projectUlid: project.ulid, changes: { after: project } },
    ]);
  });

  it('creates exactly the listed environments, none for an empty list', async () => {
    const w = world();
    await w.projects.create(owner, { key: 'a', name: 'A', environments: [{ key: 'live', name: 'Live' }] }, recordingAudit());
    await w.projects.create(owner, { key: 'b', name: 'B', environments: [] }, recordingAudit());
    expect([...w.stores.environments.rows.values()].map((e) => e.key)).toEqual(['live']);
  });

  it('refuses duplicates, blank names and broken unicode field by field, writing nothing', async () => {
    const w = world();
    const attempt = (input: Parameters<typeof w.projects.create>[1]) => w.projects.create(owner, input, recordingAudit());
    await expect(attempt({ key: 'a', name: 'A', environments: [{ key: 'x', name: 'X' }, { key: 'x', name: 'Y' }] })).rejects.toMatchObject({
      errors: { environments: [expect.stringContaining('"x"')] },
    });
    await expect(attempt({ key: 'a', name: '  ' })).rejects.toMatchObject({ errors: { name: ['The name field must not be blank.'] } });
    await expect(attempt({ key: 'a', name: 'x', description: 'bad \ud800' })).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt({ key: 'a', name: 'x', environments: [{ key: 'e', name: '\u0001' }] })).rejects.toMatchObject({
      errors: { 'environments.0.name': [expect.any(String)] },
    });
    expect(w.stores.projects.rows.size).toBe(0);
    expect(w.stores.environments.rows.size).toBe(0);
  });

  it('refuses a taken key on the key field', async () => {
    const w = world();
    await w.projects.create(owner, { key: 'a', name: 'A' }, recordingAudit());
    await expect(w.projects.create(owner, { key: 'a', name: 'B' }, recordingAudit())).rejects.toMatchObject({
      errors: { key: ['The key has already been taken.'] },
    });
    expect(w.stores.projects.rows.size).toBe(1);
  });

  it('rolls the project back when an environment cannot be written', async () => {
    const w = world();
    const insert = w.stores.environments.insert.bind(w.stores.environments);
    let calls = 0;
    w.stores.environments.insert = async (trx, env) => {
      calls += 1;
      if (calls === 2) throw new Error('disk full');
      return insert(trx, env);
    };
    const audit = recordingAudit();
    await expect(w.projects.create(owner, { key: 'a', name: 'A' }, audit)).rejects.toThrow('disk full');
    expect(w.stores.projects.rows.size).toBe(0);
    expect(w.stores.environments.rows.size).toBe(0);
    expect(audit.committed).toEqual([]);
  });

  it('needs an unrestricted administrator', async () => {
    const w = world();
    await expect(w.projects.create(principal({ access: granted(['prj_x']) }), { key: 'a', name: 'A' }, recordingAudit())).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(w.projects.create(principal({ role: 'member', type: 'management_token', scopes: ['config:write'] }), { key: 'a', name: 'A' }, recordingAudit())).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    expect(w.stores.projects.rows.size).toBe(0);
  });
});

describe('ProjectService reads', () => {
  it('lists only visible projects, in pages', async () => {
    const w = world();
    const made = [];
    for (const key of ['a', 'b', 'c', 'd']) made.push(await w.projects.create(owner, { key, name: key }, recordingAudit()));
    const page1 = await w.projects.list(owner, { per_page: 3 });
    expect(page1.data.map((p) => p.key)).toEqual(['a', 'b', 'c']);
    expect(page1.meta.prev_cursor).toBeNull();
    const page2 = await w.projects.list(owner, { per_page: 3, cursor: page1.meta.next_cursor! });
    expect(page2.data.map((p) => p.key)).toEqual(['d']);
    expect(page2.meta.next_cursor).toBeNull();
    const back = await w.projects.list(owner, { per_page: 3, cursor: page2.meta.prev_cursor! });
    expect(back.data.map((p) => p.key)).toEqual(['a', 'b', 'c']);

    const member = principal({ role: 'member', access: new ResourceAccess(new Set([made[1]!.ulid, made[3]!.ulid]), null) });
    expect((await w.projects.list(member, { per_page: 10 })).data.map((p) => p.key)).toEqual(['b', 'd']);
    const envGrant = principal({ type: 'management_token', scopes: ['projects:read'], access: granted([], [[made[2]!.ulid, 'env_x']]) });
    expect((await w.projects.list(envGrant, { per_page: 10 })).data.map((p) => p.key)).toEqual(['c']);
    await expect(w.projects.list(owner, { per_page: 3, cursor: 'garbage' })).rejects.toBeInstanceOf(UnprocessableError);
  });

  it('hides projects the caller cannot reach as 404', async () => {
    const w = world();
    const a = await w.projects.create(owner, { key: 'a', name: 'A' }, recordingAudit());
    const audit = recordingAudit();
    expect(await w.projects.get(owner, 'a', audit)).toEqual(a);
    expect(audit.described).toEqual([{ action: 'project.read', subjectType: 'project', subjectUlid: a.ulid, subjectLabel: 'a', projectUlid: a.ulid }]);
    await expect(w.projects.get(principal({ access: granted(['prj_other']) }), 'a', recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
    await expect(w.projects.get(owner, 'missing', recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('ProjectService.update and delete', () => {
  it('updates the name, keeps an omitted description and needs the whole project', async () => {
    const w = world();
    const a = await w.projects.create(owner, { key: 'a', name: 'A', description: 'keep me' }, recordingAudit());
    w.clock.advance(1000);
    const updated = await w.projects.update(owner, 'a', { name: 'A2' }, recordingAudit());
    expect(updated).toMatchObject({ name: 'A2', description: 'keep me', created_at: a.created_at, updated_at: '2026-03-04T05:06:08.000Z' });
    const envUlid = [...w.stores.environments.rows.values()][0]!.ulid;
    const envOnly = principal({ type: 'management_token', scopes: ['config:write'], access: granted([], [[a.ulid, envUlid]]) });
    await expect(w.projects.update(envOnly, 'a', { name: 'x' }, recordingAudit())).rejects.toBeInstanceOf(ForbiddenError);
    await expect(w.projects.delete(envOnly, 'a', recordingAudit())).rejects.toBeInstanceOf(ForbiddenError);
    expect(w.stores.projects.rows.get(a.ulid)?.name).toBe('A2');
  });

  it('deletes with everything in it and revokes tokens that would be left without grants', async () => {
    const w = world();
    const a = await w.projects.create(owner, { key: 'a', name: 'A' }, recordingAudit());
    const b = await w.projects.create(owner, { key: 'b', name: 'B' }, recordingAudit());
    await w.keys.create(owner, 'a', 'production', { kind: 'server' }, recordingAudit());
    const onlyA = await w.tokens.create(owner, { name: 'a', scopes: ['projects:read'], grants: { projects: ['a'] } }, recordingAudit());
    const aAndB = await w.tokens.create(owner, { name: 'ab', scopes: ['projects:read'], grants: { projects: ['a', 'b'] } }, recordingAudit());
    const audit = recordingAudit();
    await w.projects.delete(owner, 'a', audit);
    expect(audit.committed[0]).toMatchObject({ action: 'project.deleted', subjectUlid: a.ulid });
    expect(w.stores.projects.rows.has(a.ulid)).toBe(false);
    expect([...w.stores.environments.rows.values()].every((e) => e.project_ulid === b.ulid)).toBe(true);
    expect(w.stores.keys.rows.size).toBe(0);
    expect(w.stores.tokens.rows.get(onlyA.ulid)?.record.revoked_at).toBe('2026-03-04T05:06:07.000Z');
    expect(w.stores.tokens.rows.get(aAndB.ulid)?.record.revoked_at).toBeNull();
    await expect(w.projects.delete(owner, 'a', recordingAudit())).rejects.toBeInstanceOf(NotFoundError);
  });
});
