import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createAccountWithToken } from './admin-support.js';
import { unique } from './public-fixtures.js';

/**
 * The instance that makes a change serves it from the moment it answers: keys, tokens, accounts
 * and publishes are visible to the very next request (other instances: within one poll interval,
 * multi-instance.test.ts). The poll interval is the production default, so nothing here passes
 * by waiting for a poll.
 */
describeEachDatabase('an instance sees its own writes', (db) => {
  let app: TestApp;
  const projectKey = unique('ryw');
  const keysPath = `/projects/${projectKey}/environments/production/keys`;

  beforeAll(async () => {
    app = await startTestApp(db, { config: { revisionPollMs: 5000 } });
    const project = await app.mgmt('POST', '/projects', {
      key: projectKey,
      name: 'RYW',
      environments: [{ key: 'production', name: 'Production' }],
    });
    expect(project.status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('accepts a key at once after creating it, and refuses it at once after revoking it', async () => {
    for (let i = 0; i < 3; i++) {
      const created = await app.mgmt('POST', keysPath, { kind: 'server' });
      expect(created.status).toBe(200);
      const apiKey = created.body.data.key as string;
      expect((await app.request('GET', '/v1/flags', { apiKey })).status).toBe(200);
      expect((await app.mgmt('DELETE', `${keysPath}/${created.body.data.ulid}`)).status).toBe(200);
      expect((await app.request('GET', '/v1/flags', { apiKey })).status).toBe(401);
    }
  });

  it('accepts a management token at once after creating it, and refuses it at once after revoking it', async () => {
    const created = await app.mgmt('POST', '/tokens', { name: 'RYW', scopes: ['projects:read'] });
    expect(created.status).toBe(200);
    const bearer = { token: created.body.data.token as string };
    expect((await app.request('GET', '/management/v1/projects', bearer)).status).toBe(200);
    expect((await app.mgmt('DELETE', `/tokens/${created.body.data.ulid}`)).status).toBe(200);
    expect((await app.request('GET', '/management/v1/projects', bearer)).status).toBe(401);
  });

  it('refuses the tokens of an account at once after deleting it', async () => {
    const account = await createAccountWithToken(app, 'admin');
    const bearer = { token: account.token };
    expect((await app.request('GET', '/management/v1/accounts', bearer)).status).toBe(200);
    expect((await app.mgmt('DELETE', `/accounts/${account.ulid}`)).status).toBe(200);
    expect((await app.request('GET', '/management/v1/accounts', bearer)).status).toBe(401);
  });

  it('serves a publish from the moment the publish answered', async () => {
    const keyRes = await app.mgmt('POST', keysPath, { kind: 'server' });
    const apiKey = keyRes.body.data.key as string;
    const flagKey = unique('ryw-flag');
    expect((await app.mgmt('POST', `/projects/${projectKey}/flags`, { key: flagKey, name: 'RYW', type: 'boolean' })).status).toBe(200);
    // The new flag itself is served at once.
    const first = await app.request('GET', `/v1/flags/${flagKey}`, { apiKey });
    expect(first.status).toBe(200);
    const values = await app.mgmt('GET', `/projects/${projectKey}/flags/${flagKey}/values`);
    const envPath = `/projects/${projectKey}/flags/${flagKey}/environments/production`;
    for (const wanted of [true, false, true, false, true, false]) {
      const value = values.body.data.find((v: { value: unknown }) => v.value === wanted);
      const draft = await app.mgmt('POST', `${envPath}/targets`);
      expect(draft.status).toBe(200);
      expect((await app.mgmt('PUT', `${envPath}/targets/${draft.body.data.ulid}`, { value_ulid: value.ulid })).status).toBe(200);
      expect((await app.mgmt('PUT', `${envPath}/targets/${draft.body.data.ulid}/publish`, { comment: String(wanted) })).status).toBe(200);
      const served = await app.request('GET', `/v1/flags/${flagKey}`, { apiKey });
      expect(served.body.data.flag.value.boolean).toBe(wanted);
    }
  });
});
