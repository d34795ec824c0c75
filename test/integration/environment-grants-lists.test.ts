import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createEnvironmentKey, createManagementToken, expectNoWrites, lastAuditEntry } from './admin-support.js';

/**
 * Every read that lists or names environments, for a token granted only `development`: the
 * other environments are absent (lists), answered as absent (404, or 422 reference_not_found
 * where an unknown key is), and never named in a refusal's message either.
 */
describeEachDatabase('environment grants: every list that names environments leaves the others out', (db) => {
  let app: TestApp;
  let token: string;
  let productionUlid: string;
  const projectKey = `envlists-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const byToken = (method: string, path: string, body?: unknown) =>
    app.request(method, `/management/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
  /** Whether an answer names production: its key in a path or label, or its ulid. */
  const namesProduction = (body: unknown) => {
    const text = JSON.stringify(body ?? '');
    return text.includes('production') || text.includes(productionUlid);
  };

  beforeAll(async () => {
    app = await startTestApp(db);
    await expectOk(app, 'POST', '/projects', {
      key: projectKey,
      name: 'Env lists',
      environments: [
        { key: 'development', name: 'Development' },
        { key: 'production', name: 'Production' },
      ],
    });
    productionUlid = (await expectOk(app, 'GET', `${p}/environments/production`)).ulid;
    await expectOk(app, 'POST', `${p}/flags`, { key: 'f1', name: 'F1', type: 'string' });
    await expectOk(app, 'POST', `${p}/flags/f1/values`, { display: 'first-value' });
    await expectOk(app, 'POST', `${p}/flags/f1/values`, { display: 'live-value' });
    await expectOk(app, 'POST', `${p}/flags/f1/environments/production/serve`, { value: 'live-value' });
    await expectOk(app, 'POST', `${p}/flags/f1/environments/development/serve`, { value: 'live-value' });
    await expectOk(app, 'POST', `${p}/flags`, { key: 'gate', name: 'Gate', type: 'boolean' });
    // f1 in production requires gate: gate's deletion is refused, naming where it is required.
    const gateTrue = (await expectOk(app, 'GET', `${p}/flags/gate/values`)).find((v: { display: string }) => v.display === 'true').ulid;
    const draft = await expectOk(app, 'POST', `${p}/flags/f1/environments/production/targets`);
    await expectOk(app, 'PUT', `${p}/flags/f1/environments/production/targets/${draft.ulid}/prerequisites`, {
      prerequisites: [{ flag_key: 'gate', value_ulids: [gateTrue] }],
    });
    await expectOk(app, 'PUT', `${p}/flags/f1/environments/production/targets/${draft.ulid}/publish`, {});
    await expectOk(app, 'PUT', `${p}/environments/production`, { name: 'Production', color: '#dc2626' });
    await createEnvironmentKey(app, projectKey, 'production');
    token = (
      await createManagementToken(app, ['projects:read', 'flags:read', 'flags:write', 'targets:read', 'targets:write', 'audit:read'], {
        grants: { environments: [{ project: projectKey, environment: 'development' }] },
      })
    ).token;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists only the granted environment, and reads of the project name no other', async () => {
    const list = await byToken('GET', `${p}/environments`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { key: string }) => e.key)).toEqual(['development']);
    for (const path of ['/projects', p, `${p}/flags`, `${p}/flags/f1`, `${p}/flags/f1/values`, `${p}/segments`, `${p}/configuration`]) {
      const res = await byToken('GET', path);
      expect(res.status, path).toBe(200);
      expect(namesProduction(res.body), `${path}: ${JSON.stringify(res.body)}`).toBe(false);
    }
    const exported = await byToken('GET', `${p}/configuration?environments=production`);
    expect(exported.status).toBe(404);
    expect(namesProduction(exported.body.message?.replace('"production"', ''))).toBe(false);
  });

  it('answers the per-environment reports of the ungranted environment as of an absent one', async () => {
    for (const path of [
      `${p}/environments/production/stale-flags`,
      `${p}/environments/production/default-value-reports`,
      `${p}/environments/production/context-attributes`,
      `${p}/flags/f1/environments/production/insights`,
      `${p}/flags/f1/environments/production/evaluations`,
      `${p}/flags/f1/environments/production/overview`,
    ]) {
      const granted = await byToken('GET', path.replace('/production/', '/development/'));
      expect(granted.status, `${path} granted: ${JSON.stringify(granted.body)}`).toBe(200);
      const ungranted = await byToken('GET', path);
      const absent = await byToken('GET', path.replace('/production/', '/nowhere/'));
      expect(ungranted.status, path).toBe(404);
      expect(ungranted.body.code, path).toBe(absent.body.code);
    }
  });

  it('leaves the ungranted environment out of the audit logs, filtered by it or not', async () => {
    await lastAuditEntry(app);
    for (const list of ['/audit-logs', '/api-public-audit-logs']) {
      const filtered = await byToken('GET', `${list}?environment_ulid=${productionUlid}`);
      expect(filtered.status, list).toBe(200);
      expect(filtered.body.data, list).toEqual([]);
    }
    const owner = await app.mgmt('GET', `/audit-logs?project=${projectKey}&kind=changes&per_page=100`);
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    expect(owner.body.data.some((entry: unknown) => namesProduction(entry))).toBe(true);
    const all = await byToken('GET', `/audit-logs?project=${projectKey}&kind=changes&per_page=100`);
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    const naming = all.body.data.filter((entry: unknown) => namesProduction(entry));
    expect(naming.map((e: { action: string; subject_label: string }) => `${e.action} ${e.subject_label}`)).toEqual([]);
  });

  it('names no ungranted environment in the refusals of flag-level changes', async () => {
    const value = (await byToken('GET', `${p}/flags/f1/values`)).body.data.find((v: { display: string }) => v.display === 'live-value');
    const inUse = await expectNoWrites(app, () => byToken('DELETE', `${p}/flags/f1/values/${value.ulid}`));
    expect(inUse.status, JSON.stringify(inUse.body)).toBe(422);
    expect(inUse.body.message).toContain('published in development');
    expect(inUse.body.message).toContain('an environment outside your grants');
    expect(namesProduction(inUse.body), JSON.stringify(inUse.body)).toBe(false);
    const required = await expectNoWrites(app, () => byToken('DELETE', `${p}/flags/gate`));
    expect(required.status, JSON.stringify(required.body)).toBe(409);
    expect(required.body.message).toContain('f1/an environment outside your grants');
    expect(namesProduction(required.body), JSON.stringify(required.body)).toBe(false);
    // The owner, granted everything, is told where.
    expect((await app.mgmt('DELETE', `${p}/flags/gate`)).body.message).toContain('f1/production');
  });
});
