import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectNoWrites } from './admin-support.js';

describeEachDatabase('flag tags', (db) => {
  let app: TestApp;
  const projectKey = `tags-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const keysTagged = async (tag: string) =>
    ((await ok('GET', `${p}/flags?tag=${encodeURIComponent(tag)}`)) as Array<{ key: string }>).map((f) => f.key);

  beforeAll(async () => {
    app = await startTestApp(db);
    await ok('POST', '/projects', { key: projectKey, name: 'Tags' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps the tags given at creation, in their order, and starts without any otherwise', async () => {
    const created = await ok('POST', `${p}/flags`, {
      key: 'checkout',
      name: 'Checkout',
      type: 'boolean',
      tags: ['team:payments', 'release-42'],
    });
    expect(created.tags).toEqual(['team:payments', 'release-42']);
    expect((await ok('GET', `${p}/flags/checkout`)).tags).toEqual(['team:payments', 'release-42']);
    expect((await ok('POST', `${p}/flags`, { key: 'plain', name: 'Plain', type: 'string' })).tags).toEqual([]);
  });

  it('replaces the tags on update, and keeps them when the update leaves them out', async () => {
    const updated = await ok('PUT', `${p}/flags/checkout`, { name: 'Checkout', permanent: false, tags: ['team:payments', 'a_b'] });
    expect(updated.tags).toEqual(['team:payments', 'a_b']);
    expect((await ok('PUT', `${p}/flags/checkout`, { name: 'Checkout 2', permanent: false })).tags).toEqual(['team:payments', 'a_b']);
    const audit = await app.knex('audit_entries').where({ action: 'flag.updated' }).orderBy('ulid', 'desc').first('changes');
    expect(JSON.parse(audit.changes).after.tags).toEqual(['team:payments', 'a_b']);
  });

  it('lists the flags carrying a tag, exactly: no partial match, no wildcard', async () => {
    await ok('POST', `${p}/flags`, { key: 'banner', name: 'Banner', type: 'string', tags: ['team', 'axb'] });
    expect(await keysTagged('team:payments')).toEqual(['checkout']);
    expect(await keysTagged('team')).toEqual(['banner']);
    // `_` is a literal underscore, not LIKE's any-character.
    expect(await keysTagged('a_b')).toEqual(['checkout']);
    expect(await keysTagged('axb')).toEqual(['banner']);
    expect(await keysTagged('payments')).toEqual([]);
    const all = (await ok('GET', `${p}/flags?tag=`)) as Array<{ key: string }>;
    expect(all.map((f) => f.key)).toEqual(['checkout', 'plain', 'banner']);
    const withServing = await ok('GET', `${p}/flags?tag=team&include=serving`);
    expect(withServing).toEqual([expect.objectContaining({ key: 'banner', tags: ['team', 'axb'], environments: expect.any(Array) })]);
  });

  it('exports tags in the configuration file (left out when none), and plans and applies them', async () => {
    const file = (await app.mgmt('GET', `${p}/configuration`)).body;
    const byKey = Object.fromEntries(file.flags.map((f: { key: string }) => [f.key, f]));
    expect(byKey.checkout.tags).toEqual(['team:payments', 'a_b']);
    expect(byKey.plain).not.toHaveProperty('tags');
    expect((await ok('POST', `${p}/configuration/plan`, file)).changes).toEqual([]);
    // An empty list is the same as none.
    byKey.plain.tags = [];
    expect((await ok('POST', `${p}/configuration/plan`, file)).changes).toEqual([]);
    byKey.plain.tags = ['from-file'];
    delete byKey.banner.tags;
    const plan = (await ok('POST', `${p}/configuration/plan`, file)).changes;
    expect(plan.map((c: { key: string; fields: string[] }) => [c.key, c.fields])).toEqual([
      ['banner', ['tags']],
      ['plain', ['tags']],
    ]);
    await ok('POST', `${p}/configuration/apply`, file);
    expect((await ok('GET', `${p}/flags/plain`)).tags).toEqual(['from-file']);
    expect((await ok('GET', `${p}/flags/banner`)).tags).toEqual([]);
    expect((await ok('POST', `${p}/configuration/plan`, file)).changes).toEqual([]);
    await ok('PUT', `${p}/flags/banner`, { name: 'Banner', permanent: false, tags: ['team', 'axb'] });
  });

  it('refuses malformed tags with 422 and writes nothing', async () => {
    for (const tags of [['Team'], ['a', 'a'], ['-x'], ['with space'], Array.from({ length: 21 }, (_, i) => `t${i}`), ['x'.repeat(51)]]) {
      const res = await expectNoWrites(app, () => app.mgmt('PUT', `${p}/flags/checkout`, { name: 'Checkout', permanent: false, tags }));
      expect(res.status, JSON.stringify(tags)).toBe(422);
      expect(
        Object.keys(res.body.errors).every((k) => k === 'tags' || k.startsWith('tags')),
        JSON.stringify(res.body),
      ).toBe(true);
    }
    const query = await app.mgmt('GET', `${p}/flags?tag=Team`);
    expect(query.status).toBe(422);
    expect(query.body.code).toBe('invalid_query');
  });
});
