import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import {
  auditEntriesSince,
  auditEntryAfter,
  bumped,
  createProject,
  insertRule,
  insertTarget,
  lastAuditUlid,
  revisions,
  snapshot,
  type SeededProject,
} from './flags-fixtures.js';

describeEachDatabase('flags', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  const createFlag = (project: SeededProject, body: Record<string, unknown>) => app.mgmt('POST', `/projects/${project.key}/flags`, body);

  /** Expects a 422 in the field-keyed shape naming `field`, and no change to the data. */
  async function expectFieldRefusal(send: () => Promise<{ status: number; body: any }>, field: string) {
    const before = await snapshot(app);
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.errors, JSON.stringify(res.body)).toHaveProperty([field]);
    expect(res.body.status).toBeUndefined();
    expect(await snapshot(app)).toEqual(before);
    return res;
  }

  describe('createFlag', () => {
    it('creates a boolean flag with values true and false, false the default, and bumps every environment', async () => {
      const project = await createProject(app);
      const before = await revisions(app, project);
      const since = await lastAuditUlid(app);
      const res = await createFlag(project, { key: 'new-checkout', name: 'New checkout', type: 'boolean' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      const flag = res.body.data;
      expect(flag).toMatchObject({
        key: 'new-checkout',
        name: 'New checkout',
        type: 'boolean',
        description: null,
        permanent: false,
        include_in_mobile: true,
        include_in_client: true,
      });
      expect(flag.ulid).toMatch(/^flg_[0-9A-Z]{26}$/);
      expect(flag.created_at).toBe(flag.updated_at);
      expect(await revisions(app, project)).toEqual(bumped(before));

      const audit = await auditEntryAfter(app, since);
      expect(audit).toMatchObject({
        action: 'flag.created',
        subject_type: 'flag',
        subject_ulid: flag.ulid,
        subject_label: 'new-checkout',
        project_ulid: project.ulid,
        result: 'success',
        status_code: 200,
      });

      const values = await app.mgmt('GET', `/projects/${project.key}/flags/new-checkout/values`);
      expect(values.status).toBe(200);
      expect(values.body.data.map((v: any) => [v.display, v.value, v.default])).toEqual([
        ['true', true, false],
        ['false', false, true],
      ]);
    });

    it.each(['number', 'string', 'json'])('creates a %s flag without values', async (type) => {
      const project = await createProject(app);
      const res = await createFlag(project, {
        key: `f-${type}`,
        name: 'F',
        type,
        description: 'What it does.',
        include_in_mobile: false,
        include_in_client: false,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        type,
        description: 'What it does.',
        include_in_mobile: false,
        include_in_client: false,
        permanent: false,
      });
      const values = await app.mgmt('GET', `/projects/${project.key}/flags/f-${type}/values`);
      expect(values.body.data).toEqual([]);
    });

    it('accepts a key of exactly 200 characters, a 200-character name and a 1000-character description', async () => {
      const project = await createProject(app);
      const key = 'k'.repeat(200);
      const res = await createFlag(project, { key, name: 'n'.repeat(200), type: 'string', description: 'd'.repeat(1000) });
      expect(res.status).toBe(200);
      expect((await app.mgmt('GET', `/projects/${project.key}/flags/${key}`)).body.data.key).toBe(key);
    });

    it('refuses a key already used in the project (422 on key), leaving everything as it was', async () => {
      const project = await createProject(app);
      await createFlag(project, { key: 'dup', name: 'First', type: 'boolean' });
      const since = await lastAuditUlid(app);
      await expectFieldRefusal(() => createFlag(project, { key: 'dup', name: 'Second', type: 'string' }), 'key');
      // The entry committed with the failed insert rolled back; the request is recorded as refused.
      expect(await auditEntryAfter(app, since)).toMatchObject({ action: 'flag.created', result: 'invalid', status_code: 422 });
      const flag = await app.mgmt('GET', `/projects/${project.key}/flags/dup`);
      expect(flag.body.data).toMatchObject({ name: 'First', type: 'boolean' });
      // The same key in another project is another flag.
      const other = await createProject(app);
      expect((await createFlag(other, { key: 'dup', name: 'Other', type: 'string' })).status).toBe(200);
    });

    it.each([
      ['key', { key: 'Upper', name: 'n', type: 'boolean' }],
      ['key', { key: '-leading', name: 'n', type: 'boolean' }],
      ['key', { key: 'has space', name: 'n', type: 'boolean' }],
      ['key', { key: '', name: 'n', type: 'boolean' }],
      ['key', { key: 'k'.repeat(201), name: 'n', type: 'boolean' }],
      ['key', { name: 'n', type: 'boolean' }],
      ['name', { key: 'ok', name: '', type: 'boolean' }],
      ['name', { key: 'ok', name: 'n'.repeat(201), type: 'boolean' }],
      ['name', { key: 'ok', type: 'boolean' }],
      ['type', { key: 'ok', name: 'n', type: 'text' }],
      ['type', { key: 'ok', name: 'n' }],
      ['description', { key: 'ok', name: 'n', type: 'boolean', description: 'd'.repeat(1001) }],
      ['include_in_mobile', { key: 'ok', name: 'n', type: 'boolean', include_in_mobile: 'yes' }],
      ['permanent', { key: 'ok', name: 'n', type: 'boolean', permanent: true }],
    ])('refuses a bad body (422 on %s)', async (field, body) => {
      const project = await createProject(app);
      await expectFieldRefusal(() => createFlag(project, body), field);
    });

    it('answers 404 for an unknown project', async () => {
      const res = await app.mgmt('POST', '/projects/no-such-project/flags', { key: 'x', name: 'x', type: 'boolean' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: expect.any(String), code: expect.any(String) });
    });
  });

  describe('getFlag', () => {
    it('returns the flag and 404s an unknown key or a flag of another project', async () => {
      const project = await createProject(app);
      const other = await createProject(app);
      const created = (await createFlag(project, { key: 'f', name: 'F', type: 'json' })).body.data;
      const since = await lastAuditUlid(app);
      const res = await app.mgmt('GET', `/projects/${project.key}/flags/f`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', data: created });
      expect(await auditEntryAfter(app, since)).toMatchObject({ action: 'flag.read', subject_type: 'flag', subject_ulid: created.ulid });
      for (const path of [
        `/projects/${project.key}/flags/g`,
        `/projects/${other.key}/flags/f`,
        `/projects/${project.key}/flags/NOT_A_KEY`,
      ]) {
        const missing = await app.mgmt('GET', path);
        expect(missing.status, path).toBe(404);
        expect(missing.body.status).toBe('error');
      }
    });
  });

  describe('updateFlag', () => {
    it('replaces name and permanent, keeps omitted optional fields, and bumps every environment', async () => {
      const project = await createProject(app);
      const created = (await createFlag(project, { key: 'f', name: 'F', type: 'string', description: 'keep', include_in_client: false }))
        .body.data;
      const before = await revisions(app, project);
      app.clock.advance(1000);
      const since = await lastAuditUlid(app);
      const res = await app.mgmt('PUT', `/projects/${project.key}/flags/f`, { name: 'Renamed', permanent: true });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...created,
        name: 'Renamed',
        permanent: true,
        updated_at: res.body.data.updated_at,
      });
      expect(res.body.data.updated_at > created.updated_at).toBe(true);
      expect(await revisions(app, project)).toEqual(bumped(before));
      expect(await auditEntryAfter(app, since)).toMatchObject({ action: 'flag.updated', subject_ulid: created.ulid, result: 'success' });
      expect((await app.mgmt('GET', `/projects/${project.key}/flags/f`)).body.data).toEqual(res.body.data);

      const cleared = await app.mgmt('PUT', `/projects/${project.key}/flags/f`, {
        name: 'Renamed',
        permanent: false,
        description: null,
        include_in_mobile: false,
        include_in_client: true,
      });
      expect(cleared.body.data).toMatchObject({ description: null, permanent: false, include_in_mobile: false, include_in_client: true });
    });

    it.each([
      ['key', { name: 'n', permanent: false, key: 'other' }],
      ['type', { name: 'n', permanent: false, type: 'number' }],
      ['permanent', { name: 'n' }],
      ['name', { permanent: true }],
      ['name', { name: '', permanent: true }],
      ['description', { name: 'n', permanent: true, description: 'd'.repeat(1001) }],
    ])('refuses a bad body (422 on %s) and changes nothing', async (field, body) => {
      const project = await createProject(app);
      await createFlag(project, { key: 'f', name: 'F', type: 'boolean' });
      await expectFieldRefusal(() => app.mgmt('PUT', `/projects/${project.key}/flags/f`, body), field);
    });

    it('answers 404 for an unknown flag', async () => {
      const project = await createProject(app);
      const before = await snapshot(app);
      const res = await app.mgmt('PUT', `/projects/${project.key}/flags/nope`, { name: 'n', permanent: true });
      expect(res.status).toBe(404);
      expect(res.body.status).toBe('error');
      expect(await snapshot(app)).toEqual(before);
    });
  });

  describe('deleteFlag', () => {
    it('removes the flag with its values, targets, rules and criteria, and bumps every environment', async () => {
      const project = await createProject(app);
      const keep = (await createFlag(project, { key: 'keep', name: 'Keep', type: 'boolean' })).body.data;
      const flag = (await createFlag(project, { key: 'gone', name: 'Gone', type: 'boolean' })).body.data;
      const values = await app.knex('flag_values').where('flag_ulid', flag.ulid).select('ulid');
      const target = await insertTarget(app, flag.ulid, project.environments.production as string, values[0].ulid, 'published');
      await insertRule(app, target, values[1].ulid);
      const keptValues = await app.knex('flag_values').where('flag_ulid', keep.ulid).select('ulid');
      const keptTarget = await insertTarget(app, keep.ulid, project.environments.production as string, keptValues[0].ulid, 'draft');
      await insertRule(app, keptTarget, keptValues[0].ulid);
      const before = await revisions(app, project);
      const since = await lastAuditUlid(app);

      const res = await app.mgmt('DELETE', `/projects/${project.key}/flags/gone`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success' });
      expect(await app.knex('flags').where('ulid', flag.ulid)).toEqual([]);
      expect(await app.knex('flag_values').where('flag_ulid', flag.ulid)).toEqual([]);
      expect(await app.knex('targets').where('flag_ulid', flag.ulid)).toEqual([]);
      expect(await app.knex('rules').where('target_ulid', target)).toEqual([]);
      expect(await app.knex('criteria').whereIn('rule_ulid', app.knex('rules').select('ulid').where('target_ulid', target))).toEqual([]);
      // The other flag and its targeting are untouched.
      expect(await app.knex('flag_values').where('flag_ulid', keep.ulid)).toHaveLength(2);
      expect(await app.knex('rules').where('target_ulid', keptTarget)).toHaveLength(1);
      expect(await revisions(app, project)).toEqual(bumped(before));
      expect(await auditEntryAfter(app, since)).toMatchObject({
        action: 'flag.deleted',
        subject_type: 'flag',
        subject_ulid: flag.ulid,
        subject_label: 'gone',
      });

      const again = await app.mgmt('DELETE', `/projects/${project.key}/flags/gone`);
      expect(again.status).toBe(404);
      expect((await app.mgmt('GET', `/projects/${project.key}/flags/gone`)).status).toBe(404);
    });
  });

  describe('bulkDeleteFlags', () => {
    it('deletes the flags that exist and reports the others, in request order, in one change', async () => {
      const project = await createProject(app);
      const other = await createProject(app);
      for (const key of ['a', 'b', 'c']) await createFlag(project, { key, name: key, type: 'boolean' });
      await createFlag(other, { key: 'a', name: 'a', type: 'boolean' });
      const b = (await app.mgmt('GET', `/projects/${project.key}/flags/b`)).body.data;
      const bValue = await app.knex('flag_values').where('flag_ulid', b.ulid).first('ulid');
      const target = await insertTarget(app, b.ulid, project.environments.development as string, bValue.ulid, 'published');
      await insertRule(app, target, bValue.ulid);
      const before = await revisions(app, project);
      const otherBefore = await revisions(app, other);
      const since = await lastAuditUlid(app);

      const res = await app.mgmt('POST', `/projects/${project.key}/flags/bulk-delete`, { flag_keys: ['c', 'missing', 'b', 'zz-top'] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', data: { deleted: ['c', 'b'], not_found: ['missing', 'zz-top'] } });
      // Each flag's deletion as DELETE records it, in request order, then the request itself.
      const entries = await auditEntriesSince(app, since);
      expect(entries.map((e) => [e.action, e.subject_label])).toEqual([
        ['flag.deleted', 'c'],
        ['flag.deleted', 'b'],
        ['flag.bulk_deleted', 'c, b'],
      ]);
      expect(entries[1]).toMatchObject({ subject_type: 'flag', subject_ulid: b.ulid, result: 'success' });
      expect(JSON.parse(entries[1]!.changes as string)).toEqual({ before: b });
      expect(entries[2]).toMatchObject({ subject_type: 'flag', result: 'success' });
      const left = await app.mgmt('GET', `/projects/${project.key}/flags`);
      expect(left.body.data.map((f: any) => f.key)).toEqual(['a']);
      expect((await app.mgmt('GET', `/projects/${other.key}/flags/a`)).status).toBe(200);
      expect(await app.knex('targets').where('ulid', target)).toEqual([]);
      expect(await app.knex('rules').where('target_ulid', target)).toEqual([]);
      expect(await revisions(app, project)).toEqual(bumped(before));
      expect(await revisions(app, other)).toEqual(otherBefore);
    });

    it('leaves a flag keyed `bulk-delete` reachable through GET, PUT and DELETE', async () => {
      const project = await createProject(app);
      expect((await createFlag(project, { key: 'bulk-delete', name: 'Odd', type: 'boolean' })).status).toBe(200);
      const path = `/projects/${project.key}/flags/bulk-delete`;
      expect((await app.mgmt('GET', path)).body.data.key).toBe('bulk-delete');
      expect((await app.mgmt('PUT', path, { name: 'Odd 2', permanent: false })).body.data.name).toBe('Odd 2');
      expect((await app.mgmt('POST', path, { flag_keys: ['bulk-delete'] })).body.data).toEqual({ deleted: ['bulk-delete'], not_found: [] });
      expect((await app.mgmt('DELETE', path)).status).toBe(404);
    });

    it('succeeds without changing anything when no key names a flag', async () => {
      const project = await createProject(app);
      const before = await revisions(app, project);
      const res = await app.mgmt('POST', `/projects/${project.key}/flags/bulk-delete`, { flag_keys: ['x'] });
      expect(res.body.data).toEqual({ deleted: [], not_found: ['x'] });
      expect(await revisions(app, project)).toEqual(before);
    });

    it('accepts exactly 100 keys', async () => {
      const project = await createProject(app);
      for (let i = 0; i < 3; i++) await createFlag(project, { key: `k${i}`, name: 'k', type: 'string' });
      const keys = Array.from({ length: 100 }, (_, i) => `k${i}`);
      const res = await app.mgmt('POST', `/projects/${project.key}/flags/bulk-delete`, { flag_keys: keys });
      expect(res.status).toBe(200);
      expect(res.body.data.deleted).toEqual(['k0', 'k1', 'k2']);
      expect(res.body.data.not_found).toHaveLength(97);
    });

    it.each([
      ['101 keys', { flag_keys: Array.from({ length: 101 }, (_, i) => `k${i}`) }],
      ['duplicate keys', { flag_keys: ['k0', 'k1', 'k0'] }],
      ['no keys', { flag_keys: [] }],
      ['a missing list', {}],
    ])('refuses %s (422 on flag_keys) and deletes nothing', async (_label, body) => {
      const project = await createProject(app);
      for (let i = 0; i < 2; i++) await createFlag(project, { key: `k${i}`, name: 'k', type: 'boolean' });
      const res = await expectFieldRefusal(() => app.mgmt('POST', `/projects/${project.key}/flags/bulk-delete`, body), 'flag_keys');
      expect(res.body.message).toEqual(expect.any(String));
      expect((await app.mgmt('GET', `/projects/${project.key}/flags`)).body.data).toHaveLength(2);
    });

    it('refuses keys that are not strings (422 on the item)', async () => {
      const project = await createProject(app);
      await expectFieldRefusal(() => app.mgmt('POST', `/projects/${project.key}/flags/bulk-delete`, { flag_keys: [1, 2] }), 'flag_keys.0');
    });
  });

  describe('listFlags', () => {
    let project: SeededProject;
    const keys = ['alpha', 'beta-checkout', 'gamma', 'delta', 'epsilon'];
    beforeAll(async () => {
      project = await createProject(app);
      for (const [i, key] of keys.entries()) {
        await createFlag(project, { key, name: `Flag ${key.toUpperCase()}`, type: i % 2 === 0 ? 'boolean' : 'string' });
      }
      const other = await createProject(app);
      await createFlag(other, { key: 'alpha-elsewhere', name: 'Elsewhere', type: 'boolean' });
    });

    const list = (query = '') => app.mgmt('GET', `/projects/${project.key}/flags${query}`);

    it("lists the project's flags in creation order with the default page size", async () => {
      const since = await lastAuditUlid(app);
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body.data.map((f: any) => f.key)).toEqual(keys);
      expect(res.body.meta).toEqual({ per_page: 25, next_cursor: null, prev_cursor: null });
      expect(await auditEntryAfter(app, since)).toMatchObject({
        action: 'flag.listed',
        subject_type: 'project',
        subject_ulid: project.ulid,
      });
    });

    it('pages forwards and backwards with the cursors', async () => {
      const first = await list('?per_page=2');
      expect(first.body.data.map((f: any) => f.key)).toEqual(['alpha', 'beta-checkout']);
      expect(first.body.meta.prev_cursor).toBeNull();
      const second = await list(`?per_page=2&cursor=${first.body.meta.next_cursor}`);
      expect(second.body.data.map((f: any) => f.key)).toEqual(['gamma', 'delta']);
      const third = await list(`?per_page=2&cursor=${second.body.meta.next_cursor}`);
      expect(third.body.data.map((f: any) => f.key)).toEqual(['epsilon']);
      expect(third.body.meta.next_cursor).toBeNull();
      const back = await list(`?per_page=2&cursor=${third.body.meta.prev_cursor}`);
      expect(back.body.data.map((f: any) => f.key)).toEqual(['gamma', 'delta']);
      const start = await list(`?per_page=2&cursor=${back.body.meta.prev_cursor}`);
      expect(start.body.data.map((f: any) => f.key)).toEqual(['alpha', 'beta-checkout']);
      expect(start.body.meta.prev_cursor).toBeNull();
      expect((await list('?per_page=2&cursor=')).body.data).toHaveLength(2);
    });

    it('filters by type', async () => {
      expect((await list('?type=string')).body.data.map((f: any) => f.key)).toEqual(['beta-checkout', 'delta']);
      expect((await list('?type=json')).body.data).toEqual([]);
    });

    it('searches key and name, partially and case-insensitively', async () => {
      expect((await list('?search=CHECK')).body.data.map((f: any) => f.key)).toEqual(['beta-checkout']);
      expect((await list('?search=flag%20gam')).body.data.map((f: any) => f.key)).toEqual(['gamma']);
      expect((await list('?search=FLAG')).body.data).toHaveLength(5);
      expect((await list('?search=')).body.data).toHaveLength(5);
      expect((await list('?search=elsewhere')).body.data).toEqual([]);
      expect((await list('?search=a&type=string')).body.data.map((f: any) => f.key)).toEqual(['beta-checkout', 'delta']);
    });

    it('treats %, _, \\ and ! in the search text literally', async () => {
      const p = await createProject(app);
      const names = { plain: 'Plain name', percent: 'Fifty % off', under: 'has_under', back: 'back\\slash', bang: 'bang!' };
      for (const [key, name] of Object.entries(names)) await createFlag(p, { key, name, type: 'boolean' });
      const search = async (text: string) =>
        (await app.mgmt('GET', `/projects/${p.key}/flags?search=${encodeURIComponent(text)}`)).body.data.map((f: any) => f.key);
      expect(await search('%')).toEqual(['percent']);
      expect(await search('_')).toEqual(['under']);
      expect(await search('\\')).toEqual(['back']);
      expect(await search('!')).toEqual(['bang']);
      expect(await search('a%e')).toEqual([]);
      expect(await search('h_s')).toEqual([]);
      expect(await search('BACK\\S')).toEqual(['back']);
    });

    it('refuses a NUL in the search text with 422, on every database alike, instead of matching everything', async () => {
      for (const text of ['%00', 'a%00zzz', '%00%00']) {
        const res = await list(`?search=${text}`);
        expect(res.status, text).toBe(422);
        expect(res.body).toMatchObject({ status: 'error', code: 'invalid_query' });
      }
      expect((await list('?search=a%01zzz')).body.data).toEqual([]);
    });

    it('folds the case of non-ASCII letters too', async () => {
      const p = await createProject(app);
      await createFlag(p, { key: 'umlaut', name: 'Ärger über Öl', type: 'boolean' });
      await createFlag(p, { key: 'greek', name: 'ΣΊΣΥΦΟΣ', type: 'boolean' });
      const search = async (text: string) =>
        (await app.mgmt('GET', `/projects/${p.key}/flags?search=${encodeURIComponent(text)}`)).body.data.map((f: any) => f.key);
      expect(await search('äRGER')).toEqual(['umlaut']);
      expect(await search('ÜBER öl')).toEqual(['umlaut']);
      expect(await search('σίσ')).toEqual(['greek']);
    });

    it.each([
      ['?per_page=0'],
      ['?per_page=101'],
      ['?per_page=abc'],
      ['?type=text'],
      ['?cursor=not-a-cursor'],
      [`?search=${'s'.repeat(201)}`],
    ])('refuses %s with 422 in the standard envelope', async (query) => {
      const res = await list(query);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ status: 'error', message: expect.any(String), code: expect.any(String) });
    });

    it("refuses a cursor of another project's list", async () => {
      const other = await createProject(app);
      for (const key of ['x', 'y']) await createFlag(other, { key, name: key, type: 'boolean' });
      const page = await app.mgmt('GET', `/projects/${other.key}/flags?per_page=1`);
      const res = await list(`?cursor=${page.body.meta.next_cursor}`);
      expect(res.status).toBe(422);
      expect(res.body.status).toBe('error');
    });

    it('answers 404 for an unknown project', async () => {
      expect((await app.mgmt('GET', '/projects/nope/flags')).status).toBe(404);
    });
  });
});
