import { afterAll, beforeAll, expect, it } from 'vitest';
import { digestSecret } from '../../src/auth/secrets.js';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createEnvironmentKey, createProject, expectNoWrites, lastAuditEntry } from './admin-support.js';

async function waitFor(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachDatabase('admin: environment keys', (db) => {
  let app: TestApp;
  let project: { key: string; ulid: string };
  beforeAll(async () => {
    app = await startTestApp(db);
    project = await createProject(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates keys of each kind, storing only a digest and showing the secret once', async () => {
    const prefixes = { server: 'srv_', mobile: 'mob_', client: 'cli_' } as const;
    const names = { server: 'Server key', mobile: 'Mobile key', client: 'Client key' } as const;
    for (const kind of ['server', 'mobile', 'client'] as const) {
      const res = await app.mgmt('POST', `/projects/${project.key}/environments/production/keys`, { kind });
      expect(res.status).toBe(200);
      const data = res.body.data;
      expect(data.ulid).toMatch(/^key_[0-9A-Z]{26}$/);
      expect(data.kind).toBe(kind);
      expect(data.name).toBe(names[kind]);
      expect(data.revoked_at).toBeNull();
      expect(data.key).toMatch(new RegExp(`^${prefixes[kind]}[0-9A-Za-z]{40}$`));
      expect(data.masked_key).toBe(`${prefixes[kind]}...${data.key.slice(-4)}`);
      const row = await app.knex('environment_keys').where('ulid', data.ulid).first();
      expect(row.digest).toBe(digestSecret(data.key));
      expect(JSON.stringify(row)).not.toContain(data.key);
      const audit = await app.knex('audit_entries').where({ action: 'environment_key.created', subject_ulid: data.ulid }).first();
      expect(audit).toMatchObject({ subject_type: 'environment_key', result: 'success' });
      expect(JSON.stringify(audit)).not.toContain(data.key);
    }
    const named = await app.mgmt('POST', `/projects/${project.key}/environments/production/keys`, {
      kind: 'server',
      name: 'Checkout service 🛒',
    });
    expect(named.body.data.name).toBe('Checkout service 🛒');
  });

  it('lists keys masked, oldest first, never with the secret or its digest', async () => {
    const p = await createProject(app);
    const first = await createEnvironmentKey(app, p.key, 'development', 'server');
    const second = await createEnvironmentKey(app, p.key, 'development', 'client');
    await createEnvironmentKey(app, p.key, 'production', 'server');
    const res = await app.mgmt('GET', `/projects/${p.key}/environments/development/keys`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: { ulid: string }) => k.ulid)).toEqual([first.ulid, second.ulid]);
    for (const item of res.body.data) {
      expect(Object.keys(item).sort()).toEqual(['created_at', 'kind', 'masked_key', 'name', 'revoked_at', 'ulid']);
    }
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(first.key);
    expect(text).not.toContain(digestSecret(first.key));
    const entry = await lastAuditEntry(app);
    expect(entry).toMatchObject({ action: 'environment_key.listed', subject_type: 'environment', result: 'success' });
    expect((await app.mgmt('GET', `/projects/${p.key}/environments/nope/keys`)).status).toBe(404);
  });

  it('refuses bad key bodies without writing', async () => {
    const path = `/projects/${project.key}/environments/development/keys`;
    const cases: Array<[unknown, string]> = [
      [{}, 'kind'],
      [{ kind: 'admin' }, 'kind'],
      [{ kind: 'SERVER' }, 'kind'],
      [{ kind: 'server', name: '' }, 'name'],
      [{ kind: 'server', name: '  ' }, 'name'],
      [{ kind: 'server', name: 'n'.repeat(201) }, 'name'],
      [{ kind: 'server', name: '€'.repeat(10_000) }, 'name'],
      [{ kind: 'server', key: 'srv_' + 'a'.repeat(40) }, 'key'],
      [{ kind: 'server', name: null }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await expectNoWrites(app, () => app.mgmt('POST', path, body));
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(Object.keys(res.body.errors), JSON.stringify(body).slice(0, 60)).toContain(field);
    }
  });

  it('revokes a key: it stays listed, the cache drops it, and the public API refuses it within a second', async () => {
    const p = await createProject(app);
    const key = await createEnvironmentKey(app, p.key, 'production', 'server');
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(key.key)).toMatchObject({ keyUlid: key.ulid, kind: 'server' });
    const before = await app.request('GET', '/v1/flags', { apiKey: key.key });
    expect(before.status).toBe(200);

    app.clock.advance(5);
    const res = await app.mgmt('DELETE', `/projects/${p.key}/environments/production/keys/${key.ulid}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success' });
    const row = await app.knex('environment_keys').where('ulid', key.ulid).first();
    expect(row.revoked_at).not.toBeNull();
    expect(row.updated_at).toBe(row.revoked_at);
    expect(row.updated_at > row.created_at).toBe(true);

    // The background poll of the running app notices within one interval (50 ms in tests).
    const took = await waitFor(async () => (await app.request('GET', '/v1/flags', { apiKey: key.key })).status === 401, 1000);
    expect(took).toBeLessThan(1000);
    const refused = await app.request('GET', '/v1/flags', { apiKey: key.key });
    expect(refused.body).toEqual({ status: 'error', message: 'Invalid API key provided.', code: expect.any(String) });
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(key.key)).toBeUndefined();

    const listed = await app.mgmt('GET', `/projects/${p.key}/environments/production/keys`);
    expect(listed.body.data[0]).toMatchObject({ ulid: key.ulid, revoked_at: row.revoked_at });

    // Revoking again succeeds and changes nothing.
    app.clock.advance(5);
    const again = await app.mgmt('DELETE', `/projects/${p.key}/environments/production/keys/${key.ulid}`);
    expect(again.status).toBe(200);
    expect(await app.knex('environment_keys').where('ulid', key.ulid).first()).toEqual(row);
  });

  it('answers 404 for unknown keys and for keys of another environment', async () => {
    const p = await createProject(app);
    const dev = await createEnvironmentKey(app, p.key, 'development', 'server');
    for (const ulid of ['key_00000000000000000000000000', 'nonsense', dev.ulid]) {
      const res = await expectNoWrites(app, () => app.mgmt('DELETE', `/projects/${p.key}/environments/production/keys/${ulid}`));
      expect(res.status, ulid).toBe(404);
    }
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(dev.key)).toBeDefined();
  });
});

describeEachDatabase('admin: environment key revocation against a lagging clock', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('notices a revocation stamped earlier than the newest key (another instance runs ahead)', async () => {
    const p = await createProject(app);
    const old = await createEnvironmentKey(app, p.key, 'production', 'server');
    // A key written by an instance whose clock is a minute ahead.
    app.clock.advance(60_000);
    await createEnvironmentKey(app, p.key, 'production', 'client');
    app.clock.advance(-60_000);
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(old.key)).toBeDefined();
    expect((await app.mgmt('DELETE', `/projects/${p.key}/environments/production/keys/${old.ulid}`)).status).toBe(200);
    await app.composition.keyCache.refreshIfChanged();
    expect(app.composition.keyCache.resolve(old.key)).toBeUndefined();
  });
});
