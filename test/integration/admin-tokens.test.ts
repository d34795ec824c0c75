import { afterAll, beforeAll, expect, it } from 'vitest';
import { digestSecret } from '../../src/auth/secrets.js';
import { describeEachDatabase } from '../support/databases.js';
import type { TestApp } from '../support/test-app.js';
import {
  collectAll,
  createAccountWithToken,
  createManagementToken,
  expectNoWrites,
  lastAuditEntry,
  startWithTwoProjects,
  type CreatedProject,
} from './admin-support.js';

describeEachDatabase('admin: management tokens', (db) => {
  let app: TestApp;
  let shop: CreatedProject;
  let billing: CreatedProject;
  beforeAll(async () => {
    ({ app, shop, billing } = await startWithTwoProjects(db, [
      { key: 'staging', name: 'Staging' },
      { key: 'live', name: 'Live' },
    ]));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a token with scopes, tier, grants and expiry, storing only a digest', async () => {
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const res = await app.mgmt('POST', '/tokens', {
      name: 'Deploy bot',
      scopes: ['flags:read', 'targets:write'],
      tier: 'elevated',
      grants: { projects: [shop.key], environments: [{ project: billing.key, environment: 'staging' }] },
      expires_at: expires,
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      name: 'Deploy bot',
      scopes: ['flags:read', 'targets:write'],
      tier: 'elevated',
      grants: { projects: [shop.key], environments: [{ project: billing.key, environment: 'staging' }] },
      expires_at: expires,
      revoked_at: null,
    });
    expect(data.ulid).toMatch(/^mgt_[0-9A-Z]{26}$/);
    expect(data.token).toMatch(/^mgt_[0-9A-Za-z]{40}$/);
    const row = await app.knex('management_tokens').where('ulid', data.ulid).first();
    expect(row.digest).toBe(digestSecret(data.token));
    expect(row.account_ulid).toBe(app.ownerUlid);
    expect(JSON.stringify(row)).not.toContain(data.token);
    const grants = await app
      .knex('management_token_grants')
      .where('token_ulid', data.ulid)
      .orderBy('id')
      .select('project_ulid', 'environment_ulid');
    const staging = await app.knex('environments').where({ project_ulid: billing.ulid, key: 'staging' }).first('ulid');
    expect(grants).toEqual([
      { project_ulid: shop.ulid, environment_ulid: null },
      { project_ulid: billing.ulid, environment_ulid: staging.ulid },
    ]);
    const audit = await app.knex('audit_entries').where({ action: 'token.created', subject_ulid: data.ulid }).first();
    expect(audit).toMatchObject({ subject_type: 'management_token', subject_label: 'Deploy bot', result: 'success' });
    expect(JSON.stringify(audit)).not.toContain(data.token);

    // The token works, with its scopes.
    const flags = await app.request('GET', `/management/v1/projects`, { token: data.token });
    expect(flags.status).toBe(403);
    expect(flags.body.required_scope).toBe('projects:read');
  });

  it('defaults to the standard tier, no grants and no expiry', async () => {
    const res = await app.mgmt('POST', '/tokens', { name: 'CI', scopes: ['projects:read'] });
    expect(res.body.data).toMatchObject({ tier: 'standard', grants: { projects: [], environments: [] }, expires_at: null });
    const empty = await app.mgmt('POST', '/tokens', {
      name: 'CI',
      scopes: ['projects:read'],
      grants: { projects: [], environments: [] },
      expires_at: null,
    });
    expect(empty.body.data.grants).toEqual({ projects: [], environments: [] });
    const list = await app.request('GET', '/management/v1/projects?per_page=100', { token: empty.body.data.token });
    expect(list.body.data.map((p: { key: string }) => p.key)).toEqual(expect.arrayContaining([shop.key, billing.key]));
  });

  it('refuses unknown grants, past expiry and bad bodies field by field, writing nothing', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ name: 'x', scopes: ['projects:read'], grants: { projects: ['no-such'] } }, ['grants.projects.0']],
      [
        {
          name: 'x',
          scopes: ['projects:read'],
          grants: {
            projects: [shop.key, 'nope'],
            environments: [
              { project: 'nope', environment: 'a' },
              { project: billing.key, environment: 'nope' },
            ],
          },
        },
        ['grants.environments.0.project', 'grants.environments.1.environment', 'grants.projects.1'],
      ],
      [{ name: 'x', scopes: ['projects:read'], expires_at: new Date(Date.now() - 1000).toISOString() }, ['expires_at']],
      [{ name: 'x', scopes: ['projects:read'], expires_at: 'tomorrow' }, ['expires_at']],
      [{ name: 'x', scopes: [] }, ['scopes']],
      [{ name: 'x', scopes: ['projects:read', 'projects:read'] }, ['scopes']],
      [{ name: 'x', scopes: ['admin'] }, ['scopes.0']],
      [{ name: 'x', scopes: ['personal'] }, ['scopes.0']],
      [{ name: 'x', scopes: 'projects:read' }, ['scopes']],
      [{ scopes: ['projects:read'] }, ['name']],
      [{ name: ' ', scopes: ['projects:read'] }, ['name']],
      [{ name: 'x'.repeat(10_000), scopes: ['projects:read'] }, ['name']],
      [{ name: 'x', scopes: ['projects:read'], tier: 'platinum' }, ['tier']],
      [{ name: 'x', scopes: ['projects:read'], grants: { projects: ['UPPER'] } }, ['grants.projects.0']],
      [{ name: 'x', scopes: ['projects:read'], grants: { teams: [] } }, ['grants.teams']],
      [{ name: 'x', scopes: ['projects:read'], grants: { environments: [{ project: shop.key }] } }, ['grants.environments.0.environment']],
      [{ name: 'x', scopes: ['projects:read'], account_ulid: app?.ownerUlid ?? 'x' }, ['account_ulid']],
    ];
    for (const [body, fields] of cases) {
      const res = await expectNoWrites(app, () => app.mgmt('POST', '/tokens', body));
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(422);
      expect(Object.keys(res.body.errors).sort(), JSON.stringify(body).slice(0, 120)).toEqual(fields.sort());
    }
  });

  it('lists tokens without secrets, paginated, including revoked ones', async () => {
    const a = await createManagementToken(app, ['flags:read']);
    const b = await createManagementToken(app, ['audit:read'], { grants: { projects: [billing.key] } });
    expect((await app.mgmt('DELETE', `/tokens/${a.ulid}`)).status).toBe(200);
    const all = await collectAll(app, '/tokens', app.ownerToken, 2);
    const ulids = all.map((t) => t.ulid);
    expect(ulids).toEqual([...ulids].sort());
    expect(ulids).toEqual(expect.arrayContaining([a.ulid, b.ulid]));
    expect(all.find((t) => t.ulid === a.ulid).revoked_at).not.toBeNull();
    expect(all.find((t) => t.ulid === b.ulid)).toMatchObject({ revoked_at: null, grants: { projects: [billing.key], environments: [] } });
    for (const t of all) expect(t.token).toBeUndefined();
    const text = JSON.stringify(all);
    expect(text).not.toContain(a.token);
    expect(text).not.toContain(digestSecret(a.token));
    for (const q of ['per_page=0', 'per_page=101', 'cursor=abc']) expect((await app.mgmt('GET', `/tokens?${q}`)).status).toBe(422);
    const projectsCursor = (await app.mgmt('GET', '/projects?per_page=1')).body.meta.next_cursor;
    expect((await app.mgmt('GET', `/tokens?cursor=${encodeURIComponent(projectsCursor)}`)).status).toBe(422);
  });

  it('revokes a token: 401 from then on, revoking again changes nothing', async () => {
    const t = await createManagementToken(app, ['projects:read']);
    expect((await app.request('GET', '/management/v1/projects', { token: t.token })).status).toBe(200);
    app.clock.advance(5);
    const res = await app.mgmt('DELETE', `/tokens/${t.ulid}`);
    expect(res.body).toEqual({ status: 'success' });
    const refused = await app.request('GET', '/management/v1/projects', { token: t.token });
    expect(refused.status).toBe(401);
    expect(refused.body.status).toBe('error');
    const row = await app.knex('management_tokens').where('ulid', t.ulid).first();
    expect(row.revoked_at).not.toBeNull();
    app.clock.advance(5);
    expect((await app.mgmt('DELETE', `/tokens/${t.ulid}`)).status).toBe(200);
    expect(await app.knex('management_tokens').where('ulid', t.ulid).first()).toEqual(row);
    for (const ulid of ['mgt_00000000000000000000000000', 'tok_whatever']) {
      expect((await expectNoWrites(app, () => app.mgmt('DELETE', `/tokens/${ulid}`))).status).toBe(404);
    }
  });

  it('an expired token gets 401', async () => {
    const t = await createManagementToken(app, ['projects:read'], {
      expires_at: new Date(app.clock.now().getTime() + 60_000).toISOString(),
    });
    expect((await app.request('GET', '/management/v1/projects', { token: t.token })).status).toBe(200);
    app.clock.advance(61_000);
    const res = await app.request('GET', '/management/v1/projects', { token: t.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', message: 'Bearer token has expired.', code: expect.any(String) });
    expect(await lastAuditEntry(app)).toMatchObject({ action: 'auth.expired_token', result: 'denied_auth' });
  });

  it('only an owner or admin personal access token manages tokens', async () => {
    const admin = await createAccountWithToken(app, 'admin');
    const member = await createAccountWithToken(app, 'member', [shop.key]);
    const everything = await createManagementToken(app, [
      'projects:read',
      'flags:read',
      'flags:write',
      'targets:read',
      'targets:write',
      'audit:read',
      'config:write',
    ]);
    const byAdmin = await app.request('POST', '/management/v1/tokens', { token: admin.token, body: { name: 'x', scopes: ['flags:read'] } });
    expect(byAdmin.status).toBe(200);
    expect((await app.knex('management_tokens').where('ulid', byAdmin.body.data.ulid).first()).account_ulid).toBe(admin.ulid);
    for (const token of [member.token, everything.token]) {
      for (const [method, path, body] of [
        ['GET', '/tokens', undefined],
        ['POST', '/tokens', { name: 'x', scopes: ['flags:read'] }],
        ['DELETE', `/tokens/${everything.ulid}`, undefined],
      ] as const) {
        const res = await expectNoWrites(app, () => app.request(method, `/management/v1${path}`, { token, body }));
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body).toMatchObject({ status: 'error', required_scope: 'personal' });
      }
    }
    expect(await lastAuditEntry(app)).toMatchObject({ action: 'scope.denied', result: 'denied_scope', status_code: 403 });
  });
});
