import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import type { TestApp } from '../support/test-app.js';
import { createAccountWithToken, expectNoWrites, lastAuditEntry, startWithTwoProjects, type CreatedProject } from './admin-support.js';

// PUT /accounts/{accountUlid}: name, role and a member's projects, effective from the next request.
describeEachDatabase('admin: account updates', (db) => {
  let app: TestApp;
  let shop: CreatedProject;
  let billing: CreatedProject;
  beforeAll(async () => {
    ({ app, shop, billing } = await startWithTwoProjects(db));
  });
  afterAll(async () => {
    await app?.close();
  });

  const projectsSeenBy = async (token: string) =>
    (await app.request('GET', '/management/v1/projects?per_page=100', { token })).body.data.map((p: { key: string }) => p.key);

  it("changes a member's name and projects; its token sees the new projects at once; audited with before and after", async () => {
    const member = await createAccountWithToken(app, 'member', [shop.key]);
    expect(await projectsSeenBy(member.token)).toEqual([shop.key]);
    const res = await app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'Ada Byron', role: 'member', projects: [billing.key] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ulid: member.ulid,
      name: 'Ada Byron',
      email: member.email,
      role: 'member',
      projects: [billing.key],
    });
    const entry = await lastAuditEntry(app);
    expect(entry).toMatchObject({ action: 'account.updated', subject_type: 'account', subject_ulid: member.ulid, result: 'success' });
    const changes = JSON.parse(String(entry.changes));
    expect([changes.before.projects, changes.after.projects, changes.after.name]).toEqual([[shop.key], [billing.key], 'Ada Byron']);
    expect(await projectsSeenBy(member.token)).toEqual([billing.key]);
  });

  it('makes a member an admin and back; the rights follow from the next request', async () => {
    const member = await createAccountWithToken(app, 'member', [shop.key]);
    expect((await app.request('GET', '/management/v1/accounts', { token: member.token })).status).toBe(403);
    const promoted = await app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'Promoted', role: 'admin' });
    expect(promoted.body.data).toMatchObject({ role: 'admin', projects: [] });
    expect((await app.request('GET', '/management/v1/accounts', { token: member.token })).status).toBe(200);
    expect(await projectsSeenBy(member.token)).toEqual(expect.arrayContaining([shop.key, billing.key]));
    // Omitted projects mean none.
    const demoted = await app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'Demoted', role: 'member' });
    expect(demoted.body.data.projects).toEqual([]);
    expect(await projectsSeenBy(member.token)).toEqual([]);
  });

  it('refuses bad bodies field by field and unknown accounts, writing nothing', async () => {
    const member = await createAccountWithToken(app, 'member', [shop.key]);
    const adminWithProjects = await expectNoWrites(app, () =>
      app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'x', role: 'admin', projects: [shop.key] }),
    );
    expect([adminWithProjects.status, Object.keys(adminWithProjects.body.errors)]).toEqual([422, ['projects']]);
    const unknownProject = await expectNoWrites(app, () =>
      app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'x', role: 'member', projects: [shop.key, 'no-such-project'] }),
    );
    expect([unknownProject.status, Object.keys(unknownProject.body.errors)]).toEqual([422, ['projects.1']]);
    const blank = await expectNoWrites(app, () => app.mgmt('PUT', `/accounts/${member.ulid}`, { name: '   ', role: 'member' }));
    expect([blank.status, Object.keys(blank.body.errors)]).toEqual([422, ['name']]);
    const email = await expectNoWrites(app, () =>
      app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'x', role: 'member', email: 'new@example.test' }),
    );
    expect(email.status).toBe(422);
    expect((await app.mgmt('PUT', '/accounts/usr_01J8Z3K7Q9V2M8N4P6R5S1T0W4', { name: 'x', role: 'member' })).status).toBe(404);
  });

  it('lets only an owner change an owner or give the owner role; no account changes its own role', async () => {
    const admin = await createAccountWithToken(app, 'admin');
    const member = await createAccountWithToken(app, 'member', []);
    const makeOwner = await expectNoWrites(app, () =>
      app.request('PUT', `/management/v1/accounts/${member.ulid}`, { token: admin.token, body: { name: 'x', role: 'owner' } }),
    );
    expect(makeOwner.status).toBe(403);
    const changeOwner = await expectNoWrites(app, () =>
      app.request('PUT', `/management/v1/accounts/${app.ownerUlid}`, { token: admin.token, body: { name: 'x', role: 'owner' } }),
    );
    expect(changeOwner.status).toBe(403);
    const ownRole = await expectNoWrites(app, () =>
      app.request('PUT', `/management/v1/accounts/${admin.ulid}`, { token: admin.token, body: { name: 'Me', role: 'member' } }),
    );
    expect([ownRole.status, ownRole.body.message]).toEqual([422, 'An account cannot change its own role.']);
    const ownName = await app.request('PUT', `/management/v1/accounts/${admin.ulid}`, {
      token: admin.token,
      body: { name: 'Renamed admin', role: 'admin' },
    });
    expect([ownName.status, ownName.body.data?.name]).toEqual([200, 'Renamed admin']);
    const byOwner = await app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'New owner', role: 'owner' });
    expect(byOwner.body.data.role).toBe('owner');
    expect((await app.mgmt('PUT', `/accounts/${member.ulid}`, { name: 'Member again', role: 'member' })).status).toBe(200);
  });

  it('keeps at least one owner when two owners take the role from each other at once', async () => {
    const second = await createAccountWithToken(app, 'owner');
    const [one, two] = await Promise.all([
      app.request('PUT', `/management/v1/accounts/${second.ulid}`, { token: app.ownerToken, body: { name: 'Second', role: 'admin' } }),
      app.request('PUT', `/management/v1/accounts/${app.ownerUlid}`, { token: second.token, body: { name: 'First', role: 'admin' } }),
    ]);
    const statuses = [one.status, two.status].sort();
    expect(statuses[0]).toBe(200);
    // The loser was refused as the last owner (or, if it was already demoted when it arrived, as no owner).
    expect([403, 422]).toContain(statuses[1]);
    const owners = await app.knex('accounts').where('role', 'owner').count({ n: '*' }).first();
    expect(Number(owners?.n)).toBe(1);
  });
});
