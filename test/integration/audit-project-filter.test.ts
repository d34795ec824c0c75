import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createManagementToken } from './admin-support.js';

describeEachDatabase('audit logs: the project filter', (db) => {
  let app: TestApp;
  const stamp = Date.now().toString(36);
  const [shop, blog] = [`shop-${stamp}`, `blog-${stamp}`];

  beforeAll(async () => {
    app = await startTestApp(db);
    for (const key of [shop, blog]) {
      await expectOk(app, 'POST', '/projects', { key, name: key });
      await expectOk(app, 'POST', `/projects/${key}/flags`, { key: 'dark-mode', name: 'Dark mode', type: 'boolean' });
    }
    await expectOk(app, 'PUT', `/projects/${shop}/flags/dark-mode`, { name: 'Dark mode, shop', permanent: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  const labels = (entries: Array<{ action: string; subject_label: string }>) => entries.map((e) => `${e.action} ${e.subject_label}`);

  it('lists only the entries about one project, on every page', async () => {
    const shopUlid = (await app.knex('projects').where('key', shop).first('ulid')).ulid;
    const first = await app.mgmt('GET', `/audit-logs?project=${shop}&per_page=2&sort=created_at_asc`);
    expect(first.status).toBe(200);
    const second = await app.mgmt(
      'GET',
      `/audit-logs?project=${shop}&per_page=2&sort=created_at_asc&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
    );
    const entries = [...first.body.data, ...second.body.data];
    expect(labels(entries)).toEqual([`project.created ${shop}`, 'flag.created dark-mode', 'flag.updated dark-mode']);
    const rows = await app
      .knex('audit_entries')
      .whereIn(
        'ulid',
        entries.map((e: { ulid: string }) => e.ulid),
      )
      .select('project_ulid');
    expect(new Set(rows.map((r: { project_ulid: string }) => r.project_ulid))).toEqual(new Set([shopUlid]));
  });

  it('matches nothing for an unknown project or one the caller cannot see', async () => {
    expect((await app.mgmt('GET', '/audit-logs?project=no-such-project')).body.data).toEqual([]);
    const blogOnly = await createManagementToken(app, ['audit:read'], { grants: { projects: [blog] } });
    const hidden = await app.request('GET', `/management/v1/audit-logs?project=${shop}`, { token: blogOnly.token });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toEqual([]);
    const visible = await app.request('GET', `/management/v1/audit-logs?project=${blog}&sort=created_at_asc`, { token: blogOnly.token });
    expect(labels(visible.body.data)).toEqual([`project.created ${blog}`, 'flag.created dark-mode']);
  });
});
