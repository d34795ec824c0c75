/**
 * The audit write paths on both databases: management reads and refusals share multi-row
 * INSERTs yet each entry is stored before its response; public entries go out in multi-row
 * batches of every size; management tokens are kept briefly in memory, yet a revocation through
 * the API refuses the token from the next request on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { flushPublicAudit, seedEnvironmentKey, seedProject, seedToken, uniqueKey } from './audit-fixtures.js';

describeEachDatabase('audit writes', (db) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(db);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('stores the entry of each of many concurrent management reads before its response', async () => {
    const marker = uniqueKey('missing');
    // More than one shared INSERT holds (50 rows), so several statements serve one event-loop turn.
    const n = 120;
    const results = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const path = `/management/v1/projects/${marker}-${i}`;
        const res = await app.request('GET', path, { token: app.ownerToken });
        const row = await app.knex('audit_entries').where('http_path', path).first();
        return { status: res.status, row };
      }),
    );
    for (const { status, row } of results) {
      expect(status).toBe(404);
      expect(row).toMatchObject({
        actor_type: 'account',
        actor_ulid: app.ownerUlid,
        http_method: 'GET',
        action: 'project.read',
        result: 'not_found',
        status_code: 404,
        project_ulid: null,
      });
    }
    expect(new Set(results.map((r) => r.row.ulid)).size).toBe(n);
  });

  it('stores refusals the same way, the token named when one was used', async () => {
    const reader = await seedToken(app, { scopes: ['projects:read'] });
    const path = `/management/v1/audit-logs`;
    const [refused, missing] = await Promise.all([
      app.request('GET', path, { token: reader.token }),
      app.request('GET', `/management/v1/projects/${uniqueKey('x')}`),
    ]);
    expect([refused.status, missing.status]).toEqual([403, 401]);
    const denied = await app.knex('audit_entries').where({ token_ulid: reader.ulid, http_path: path }).first();
    expect(denied).toMatchObject({ actor_type: 'management_token', result: 'denied_scope', status_code: 403 });
  });

  it('writes public entries in batches of every size, each row whole', async () => {
    const project = await seedProject(app);
    const key = await seedEnvironmentKey(app, project.environments.production as string);
    // 230 entries: batches of 100, 100 and 30 rows.
    const n = 230;
    for (let i = 0; i < n; i += 23) {
      await Promise.all(Array.from({ length: 23 }, (_, j) => app.request('GET', `/v1/flags/missing-${i + j}`, { apiKey: key.key })));
    }
    await flushPublicAudit(app);
    const rows = await app.knex('public_audit_entries').where('actor_ulid', key.ulid).orderBy('ulid');
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((r) => r.http_path)).size).toBe(n);
    expect(rows[0]).toMatchObject({
      actor_type: 'sdk_key',
      environment_ulid: project.environments.production,
      environment_key: 'production',
      project_ulid: project.ulid,
      http_method: 'GET',
      action: 'flag.evaluated',
      subject_type: 'flag',
      subject_ulid: null,
      result: 'not_found',
      status_code: 404,
    });
    expect(rows.every((r) => r.created_at.length === 24 && r.ulid.startsWith('aud_'))).toBe(true);
  });

  it('refuses a kept token from the request after its revocation', async () => {
    const token = await seedToken(app, { scopes: ['projects:read', 'config:write'] });
    for (let i = 0; i < 3; i++) {
      expect((await app.request('GET', '/management/v1/projects', { token: token.token })).status).toBe(200);
    }
    expect((await app.mgmt('DELETE', `/tokens/${token.ulid}`)).status).toBe(200);
    expect((await app.request('GET', '/management/v1/projects', { token: token.token })).status).toBe(401);
  });
});
