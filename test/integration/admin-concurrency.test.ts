/** Racing administration requests leave one consistent result and never a 500. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createEnvironmentKey, createProject, uniqueKey } from './admin-support.js';

const count = async (app: TestApp, table: string, where: Record<string, unknown> = {}) =>
  Number((await app.knex(table).where(where).count({ n: '*' }).first())?.n);

describeEachDatabase('admin: concurrent requests', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a project key exactly once when five requests race for it', async () => {
    const key = uniqueKey('race');
    const results = await Promise.all(Array.from({ length: 5 }, () => app.mgmt('POST', '/projects', { key, name: 'Race' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) expect(r.body.errors.key).toEqual(['The key has already been taken.']);
    const project = await app.knex('projects').where('key', key).first('ulid');
    expect(await count(app, 'environments', { project_ulid: project.ulid })).toBe(2);
    expect(await count(app, 'audit_entries', { action: 'project.created', subject_ulid: project.ulid, result: 'success' })).toBe(1);
  });

  it('creates an environment key exactly once when requests race for it', async () => {
    const { key } = await createProject(app);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => app.mgmt('POST', `/projects/${key}/environments`, { key: 'staging', name: 'Staging' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
  });

  it('gives every account e-mail address once', async () => {
    const email = `${uniqueKey('same')}@example.com`;
    const results = await Promise.all(
      ['member', 'admin', 'member'].map((role, i) =>
        app.mgmt('POST', '/accounts', { name: `N${i}`, email: i === 1 ? email.toUpperCase() : email, role }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    expect(await count(app, 'accounts', { email })).toBe(1);
  });

  it('never fails with a 500 when a project is deleted while its environments and keys are created', async () => {
    for (let round = 0; round < 3; round++) {
      const { key, ulid } = await createProject(app);
      const results = await Promise.all([
        app.mgmt('POST', `/projects/${key}/environments`, { key: 'a', name: 'A' }),
        app.mgmt('POST', `/projects/${key}/environments/production/keys`, { kind: 'server' }),
        app.mgmt('DELETE', `/projects/${key}`),
        app.mgmt('POST', `/projects/${key}/environments`, { key: 'b', name: 'B' }),
        app.mgmt('PUT', `/projects/${key}`, { name: 'Renamed' }),
      ]);
      for (const r of results) expect([200, 404], JSON.stringify(r.body)).toContain(r.status);
      expect(results[2]!.status).toBe(200);
      expect(await count(app, 'projects', { ulid })).toBe(0);
      expect(await count(app, 'environments', { project_ulid: ulid })).toBe(0);
    }
    const orphans = await app
      .knex('environment_keys as k')
      .leftJoin('environments as e', 'e.ulid', 'k.environment_ulid')
      .whereNull('e.ulid')
      .count({ n: '*' })
      .first();
    expect(Number(orphans?.n)).toBe(0);
  });

  it('revokes a key once however many revocations race', async () => {
    const { key } = await createProject(app);
    const envKey = await createEnvironmentKey(app, key, 'production');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => app.mgmt('DELETE', `/projects/${key}/environments/production/keys/${envKey.ulid}`)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await count(app, 'audit_entries', { action: 'environment_key.revoked', subject_ulid: envKey.ulid, result: 'success' })).toBe(4);
    const row = await app.knex('environment_keys').where('ulid', envKey.ulid).first();
    expect(row.revoked_at).not.toBeNull();
  });
});
