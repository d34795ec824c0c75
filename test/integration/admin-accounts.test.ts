import { afterAll, beforeAll, expect, it } from 'vitest';
import { digestSecret } from '../../src/auth/secrets.js';
import { describeEachDatabase } from '../support/databases.js';
import type { TestApp } from '../support/test-app.js';
import {
  collectAll,
  createAccountWithToken,
  createManagementToken,
  createProject,
  expectNoWrites,
  lastAuditEntry,
  startWithTwoProjects,
  type CreatedProject,
  uniqueKey,
} from './admin-support.js';

describeEachDatabase('admin: accounts and personal access tokens', (db) => {
  let app: TestApp;
  let shop: CreatedProject;
  let billing: CreatedProject;
  beforeAll(async () => {
    ({ app, shop, billing } = await startWithTwoProjects(db));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a member with projects; the member sees only those projects', async () => {
    const email = `${uniqueKey('ada')}@Example.COM`;
    const res = await app.mgmt('POST', '/accounts', { name: 'Ada Lovelace', email, role: 'member', projects: [billing.key, shop.key] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Ada Lovelace',
      email: email.toLowerCase(),
      role: 'member',
      projects: [shop.key, billing.key],
    });
    expect(res.body.data.ulid).toMatch(/^usr_[0-9A-Z]{26}$/);
    expect(await lastAuditEntry(app)).toMatchObject({
      action: 'account.created',
      subject_type: 'account',
      subject_ulid: res.body.data.ulid,
      result: 'success',
    });

    const pat = await app.mgmt('POST', `/accounts/${res.body.data.ulid}/tokens`, { name: "Ada's laptop" });
    expect(pat.status).toBe(200);
    expect(pat.body.data).toMatchObject({ name: "Ada's laptop", expires_at: null });
    expect(pat.body.data.ulid).toMatch(/^tok_/);
    expect(pat.body.data.token).toMatch(/^pat_[0-9A-Za-z]{40}$/);
    const row = await app.knex('personal_access_tokens').where('ulid', pat.body.data.ulid).first();
    expect(row.digest).toBe(digestSecret(pat.body.data.token));
    expect(JSON.stringify(row)).not.toContain(pat.body.data.token);
    const audit = await lastAuditEntry(app);
    expect(audit).toMatchObject({ action: 'personal_token.created', subject_type: 'personal_token', subject_ulid: pat.body.data.ulid });
    expect(JSON.stringify(audit)).not.toContain(pat.body.data.token);

    const other = await createProject(app);
    const list = await app.request('GET', '/management/v1/projects?per_page=100', { token: pat.body.data.token });
    expect(list.body.data.map((p: { key: string }) => p.key)).toEqual([shop.key, billing.key]);
    expect((await app.request('GET', `/management/v1/projects/${other.key}`, { token: pat.body.data.token })).status).toBe(404);
    expect((await app.request('GET', `/management/v1/projects/${shop.key}/environments`, { token: pat.body.data.token })).status).toBe(200);
    // Members do not administer: config:write is refused even on their own projects.
    const put = await expectNoWrites(app, () =>
      app.request('PUT', `/management/v1/projects/${shop.key}`, { token: pat.body.data.token, body: { name: 'x' } }),
    );
    expect(put.status).toBe(403);
    expect(put.body.required_scope).toBe('config:write');
  });

  it('lists accounts with their projects, paginated', async () => {
    await createAccountWithToken(app, 'member', [shop.key]);
    await createAccountWithToken(app, 'admin');
    const all = await collectAll(app, '/accounts', app.ownerToken, 2);
    expect(all[0]).toMatchObject({ ulid: app.ownerUlid, role: 'owner', projects: [] });
    expect(all.map((a) => a.ulid)).toEqual([...all.map((a) => a.ulid)].sort());
    expect(all.some((a) => a.role === 'member' && a.projects[0] === shop.key)).toBe(true);
    for (const q of ['per_page=0', 'per_page=101', 'cursor=zzz']) expect((await app.mgmt('GET', `/accounts?${q}`)).status).toBe(422);
  });

  it('refuses bad account bodies field by field, writing nothing', async () => {
    const taken = (await createAccountWithToken(app, 'admin')).email;
    const cases: Array<[unknown, string[]]> = [
      [{ name: 'x', email: taken.toUpperCase(), role: 'admin' }, ['email']],
      [{ name: 'x', email: 'not-an-email', role: 'admin' }, ['email']],
      [{ name: 'x', email: `${'a'.repeat(10_000)}@example.com`, role: 'admin' }, ['email']],
      [{ name: 'x', email: 'x@example.com', role: 'superuser' }, ['role']],
      [{ name: 'x', email: 'x@example.com', role: 'admin', projects: [shop.key] }, ['projects']],
      [{ name: 'x', email: 'x@example.com', role: 'member', projects: ['no-such', shop.key] }, ['projects.0']],
      [{ name: 'x', email: 'x@example.com', role: 'member', projects: [shop.key, shop.key] }, ['projects']],
      [{ name: '', email: 'x@example.com', role: 'member' }, ['name']],
      [{ name: '\t', email: 'x@example.com', role: 'member' }, ['name']],
      [{ name: 'ñ'.repeat(10_000), email: 'x@example.com', role: 'member' }, ['name']],
      [{ name: 'x', email: 'x@example.com', role: 'member', password: 'secret' }, ['password']],
      [{ email: 'x@example.com', role: 'member' }, ['name']],
    ];
    for (const [body, fields] of cases) {
      const res = await expectNoWrites(app, () => app.mgmt('POST', '/accounts', body));
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(422);
      expect(Object.keys(res.body.errors).sort(), JSON.stringify(body).slice(0, 100)).toEqual(fields);
    }
    const unicode = await app.mgmt('POST', '/accounts', { name: 'Zoë 李 🚀', email: `${uniqueKey('zoe')}@example.com`, role: 'member' });
    expect(unicode.status).toBe(200);
    expect(unicode.body.data.name).toBe('Zoë 李 🚀');
  });

  it('lets only an owner create owners or act on owner accounts', async () => {
    const admin = await createAccountWithToken(app, 'admin');
    const asAdmin = (method: string, path: string, body?: unknown) =>
      app.request(method, `/management/v1${path}`, { token: admin.token, body });
    const owner = await asAdmin('POST', '/accounts', { name: 'x', email: `${uniqueKey('o')}@example.com`, role: 'owner' });
    expect(owner.status).toBe(403);
    expect(owner.body.required_scope).toBeUndefined();
    expect((await asAdmin('POST', '/accounts', { name: 'x', email: `${uniqueKey('a')}@example.com`, role: 'admin' })).status).toBe(200);
    const ownerTokenRow = await app.knex('personal_access_tokens').where('account_ulid', app.ownerUlid).first('ulid');
    for (const [method, path, body] of [
      ['POST', `/accounts/${app.ownerUlid}/tokens`, { name: 'sneaky' }],
      ['DELETE', `/accounts/${app.ownerUlid}/tokens/${ownerTokenRow.ulid}`, undefined],
      ['DELETE', `/accounts/${app.ownerUlid}`, undefined],
    ] as const) {
      const res = await expectNoWrites(app, () => asAdmin(method, path, body));
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.status).toBe('error');
    }
    expect(await lastAuditEntry(app)).toMatchObject({
      action: 'grant.denied',
      result: 'denied_grant',
      subject_ulid: app.ownerUlid,
      subject_type: 'account',
    });
    // An admin may manage members' tokens.
    const member = await createAccountWithToken(app, 'member');
    expect((await asAdmin('POST', `/accounts/${member.ulid}/tokens`, { name: 'by admin' })).status).toBe(200);
  });

  it('creates personal access tokens with expiry and refuses past dates', async () => {
    const member = await createAccountWithToken(app, 'member', [shop.key]);
    const later = new Date(app.clock.now().getTime() + 60_000).toISOString();
    const res = await app.mgmt('POST', `/accounts/${member.ulid}/tokens`, { name: 'short', expires_at: later });
    expect(res.body.data.expires_at).toBe(later);
    expect((await app.request('GET', '/management/v1/projects', { token: res.body.data.token })).status).toBe(200);
    for (const body of [
      { name: 'x', expires_at: new Date(app.clock.now().getTime() - 1).toISOString() },
      { name: 'x', expires_at: 'soon' },
      { name: 'x', scopes: ['flags:read'] },
      { name: '' },
      {},
    ]) {
      const refused = await expectNoWrites(app, () => app.mgmt('POST', `/accounts/${member.ulid}/tokens`, body));
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    expect(
      (await expectNoWrites(app, () => app.mgmt('POST', '/accounts/usr_00000000000000000000000000/tokens', { name: 'x' }))).status,
    ).toBe(404);
    app.clock.advance(61_000);
    expect((await app.request('GET', '/management/v1/projects', { token: res.body.data.token })).status).toBe(401);
  });

  it('revokes personal access tokens of the account named in the path only', async () => {
    const a = await createAccountWithToken(app, 'member');
    const b = await createAccountWithToken(app, 'member');
    const wrong = await expectNoWrites(app, () => app.mgmt('DELETE', `/accounts/${a.ulid}/tokens/${b.tokenUlid}`));
    expect(wrong.status).toBe(404);
    expect((await app.request('GET', '/management/v1/projects', { token: b.token })).status).toBe(200);
    app.clock.advance(5);
    expect((await app.mgmt('DELETE', `/accounts/${b.ulid}/tokens/${b.tokenUlid}`)).body).toEqual({ status: 'success' });
    expect((await app.request('GET', '/management/v1/projects', { token: b.token })).status).toBe(401);
    expect(await lastAuditEntry(app)).toMatchObject({ action: 'auth.invalid_token', result: 'denied_auth' });
    const row = await app.knex('personal_access_tokens').where('ulid', b.tokenUlid).first();
    app.clock.advance(5);
    expect((await app.mgmt('DELETE', `/accounts/${b.ulid}/tokens/${b.tokenUlid}`)).status).toBe(200);
    expect(await app.knex('personal_access_tokens').where('ulid', b.tokenUlid).first()).toEqual(row);
  });

  it('deletes an account: its tokens get 401, it cannot delete itself, unknown is 404', async () => {
    const admin = await createAccountWithToken(app, 'admin');
    const member = await createAccountWithToken(app, 'member', [shop.key]);
    const memberToken = await createManagementToken(app, ['projects:read'], {}, admin.token);
    const self = await expectNoWrites(app, () => app.request('DELETE', `/management/v1/accounts/${admin.ulid}`, { token: admin.token }));
    expect(self.status).toBe(422);
    expect(self.body).toEqual({ status: 'error', message: 'An account cannot delete itself.', code: expect.any(String) });

    expect((await app.request('DELETE', `/management/v1/accounts/${member.ulid}`, { token: admin.token })).status).toBe(200);
    expect((await app.request('GET', '/management/v1/projects', { token: member.token })).status).toBe(401);
    expect(await app.knex('account_projects').where('account_ulid', member.ulid).first()).toBeUndefined();
    expect((await app.mgmt('DELETE', `/accounts/${member.ulid}`)).status).toBe(404);

    expect((await app.request('GET', '/management/v1/projects', { token: memberToken.token })).status).toBe(200);
    expect((await app.mgmt('DELETE', `/accounts/${admin.ulid}`)).status).toBe(200);
    for (const token of [admin.token, memberToken.token]) {
      const res = await app.request('GET', '/management/v1/projects', { token });
      expect(res.status).toBe(401);
      expect(res.body.status).toBe('error');
    }
    expect(
      await app.knex('audit_entries').where({ action: 'account.deleted', subject_ulid: admin.ulid, result: 'success' }).first(),
    ).toBeDefined();
  });

  it('keeps at least one owner when two owners delete each other at once', async () => {
    const second = await createAccountWithToken(app, 'owner');
    const [one, two] = await Promise.all([
      app.request('DELETE', `/management/v1/accounts/${second.ulid}`, { token: app.ownerToken }),
      app.request('DELETE', `/management/v1/accounts/${app.ownerUlid}`, { token: second.token }),
    ]);
    const statuses = [one.status, two.status].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 422]).toContain(statuses[1]);
    const owners = await app.knex('accounts').where('role', 'owner').count({ n: '*' }).first();
    expect(Number(owners?.n)).toBe(1);
    // Whoever survived is the last owner and may not be deleted.
    const survivor = one.status === 200 ? app.ownerToken : second.token;
    const survivorUlid = one.status === 200 ? app.ownerUlid : second.ulid;
    const last = await app.request('DELETE', `/management/v1/accounts/${survivorUlid}`, { token: survivor });
    expect(last.status).toBe(422);
    if (one.status !== 200) app.ownerToken = second.token;
  });
});
