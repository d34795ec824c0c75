/** Authentication of the management API end to end: every way a bearer token can be wrong. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecret } from '../../src/auth/secrets.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createAccountWithToken, createEnvironmentKey, createManagementToken, createProject, expectNoWrites } from './admin-support.js';

describeEachDatabase('auth: bearer tokens of the management API', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (headers: Record<string, string>) => app.request('GET', '/management/v1/projects', { headers });
  const post = (headers: Record<string, string>) =>
    app.request('POST', '/management/v1/projects', { headers, body: { key: 'should-not-exist', name: 'x' } });

  async function expect401(headers: Record<string, string>, message: string, action: string): Promise<void> {
    for (const send of [get, post]) {
      const res = await expectNoWrites(app, () => send(headers));
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body, JSON.stringify(headers)).toEqual({ status: 'error', message, code: expect.any(String) });
      const entry = await app.knex('audit_entries').orderBy('ulid', 'desc').first();
      expect(entry, JSON.stringify(headers)).toMatchObject({
        action,
        result: 'denied_auth',
        status_code: 401,
        actor_type: null,
        token_ulid: null,
      });
    }
  }

  it('refuses a missing or empty Authorization header', async () => {
    await expect401({}, 'Missing bearer token.', 'auth.missing_token');
    await expect401({ authorization: '' }, 'Missing bearer token.', 'auth.missing_token');
    await expect401({ authorization: '   ' }, 'Missing bearer token.', 'auth.missing_token');
  });

  it('refuses malformed and wrong-prefix tokens', async () => {
    const pat = app.ownerToken;
    for (const authorization of [
      'Bearer',
      'Bearer ',
      `Basic ${Buffer.from('owner:secret').toString('base64')}`,
      `Token ${pat}`,
      pat,
      `Bearer ${pat} extra`,
      `Bearer ${pat.slice(0, 20)}`,
      'Bearer pat_short',
      `Bearer pat_${'!'.repeat(40)}`,
      `Bearer xyz_${'a'.repeat(40)}`,
      `Bearer srv_${'a'.repeat(40)}`,
      `Bearer ${pat.toUpperCase()}`,
      `Bearer pat_${'a'.repeat(201)}`,
      `Bearer ${'ü'.repeat(40)}`,
    ]) {
      await expect401({ authorization }, 'Invalid bearer token.', 'auth.invalid_token');
    }
  });

  it('refuses an environment key used as a bearer token', async () => {
    const p = await createProject(app);
    const key = await createEnvironmentKey(app, p.key, 'production', 'server');
    await expect401({ authorization: `Bearer ${key.key}` }, 'Invalid bearer token.', 'auth.invalid_token');
  });

  it('refuses unknown tokens of both kinds', async () => {
    await expect401({ authorization: `Bearer ${generateSecret('pat_')}` }, 'Invalid bearer token.', 'auth.invalid_token');
    await expect401({ authorization: `Bearer ${generateSecret('mgt_')}` }, 'Invalid bearer token.', 'auth.invalid_token');
  });

  it('accepts the scheme in any case', async () => {
    expect((await get({ authorization: `bearer ${app.ownerToken}` })).status).toBe(200);
    expect((await get({ authorization: `BEARER ${app.ownerToken}` })).status).toBe(200);
  });

  it('refuses revoked and expired tokens of both kinds', async () => {
    const member = await createAccountWithToken(app, 'member');
    expect((await app.mgmt('DELETE', `/accounts/${member.ulid}/tokens/${member.tokenUlid}`)).status).toBe(200);
    await expect401({ authorization: `Bearer ${member.token}` }, 'Invalid bearer token.', 'auth.invalid_token');

    const mgt = await createManagementToken(app, ['projects:read']);
    expect((await app.mgmt('DELETE', `/tokens/${mgt.ulid}`)).status).toBe(200);
    await expect401({ authorization: `Bearer ${mgt.token}` }, 'Invalid bearer token.', 'auth.invalid_token');

    const soon = new Date(app.clock.now().getTime() + 30_000).toISOString();
    const expiring = await createManagementToken(app, ['projects:read', 'config:write'], { expires_at: soon });
    const pat = await app.mgmt('POST', `/accounts/${app.ownerUlid}/tokens`, { name: 'short-lived', expires_at: soon });
    expect((await get({ authorization: `Bearer ${expiring.token}` })).status).toBe(200);
    expect((await get({ authorization: `Bearer ${pat.body.data.token}` })).status).toBe(200);
    app.clock.advance(30_001);
    await expect401({ authorization: `Bearer ${expiring.token}` }, 'Bearer token has expired.', 'auth.expired_token');
    await expect401({ authorization: `Bearer ${pat.body.data.token}` }, 'Bearer token has expired.', 'auth.expired_token');
  });

  it('refuses every token of a deleted account', async () => {
    const admin = await createAccountWithToken(app, 'admin');
    const mgt = await createManagementToken(app, ['projects:read'], {}, admin.token);
    expect((await get({ authorization: `Bearer ${mgt.token}` })).status).toBe(200);
    expect((await app.mgmt('DELETE', `/accounts/${admin.ulid}`)).status).toBe(200);
    await expect401({ authorization: `Bearer ${admin.token}` }, 'Invalid bearer token.', 'auth.invalid_token');
    await expect401({ authorization: `Bearer ${mgt.token}` }, 'Invalid bearer token.', 'auth.invalid_token');
  });

  it('serves the API description without a token and ignores a bad one', async () => {
    expect((await app.request('GET', '/management/v1/api-docs')).status).toBe(200);
    expect((await app.request('GET', '/management/v1/api-docs', { headers: { authorization: 'Bearer nonsense' } })).status).toBe(200);
  });

  it('records who acted on success', async () => {
    const mgt = await createManagementToken(app, ['projects:read'], { name: 'Reader' });
    expect((await get({ authorization: `Bearer ${mgt.token}` })).status).toBe(200);
    const entry = await app.knex('audit_entries').orderBy('ulid', 'desc').first();
    expect(entry).toMatchObject({
      action: 'project.listed',
      actor_type: 'management_token',
      actor_ulid: mgt.ulid,
      token_ulid: mgt.ulid,
      token_name: 'Reader',
      result: 'success',
    });
    expect(JSON.stringify(entry)).not.toContain(mgt.token);
  });
});
