import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createManagementToken } from './admin-support.js';

/** A token granted one environment finds the others absent from the flags list too. */
describeEachDatabase('flags list: environments outside the grants are absent', (db) => {
  let app: TestApp;
  let token: string;
  const projectKey = `grants-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const byToken = (path: string) => app.request('GET', `/management/v1${path}`, { token });

  beforeAll(async () => {
    app = await startTestApp(db);
    await expectOk(app, 'POST', '/projects', {
      key: projectKey,
      name: 'Grants',
      environments: [
        { key: 'development', name: 'Development' },
        { key: 'production', name: 'Production' },
      ],
    });
    await expectOk(app, 'POST', `${p}/flags`, { key: 'f1', name: 'F1', type: 'boolean' });
    await expectOk(app, 'POST', `${p}/flags/f1/environments/production/serve`, { value: 'true' });
    token = (
      await createManagementToken(app, ['flags:read', 'targets:read'], {
        grants: { environments: [{ project: projectKey, environment: 'development' }] },
      })
    ).token;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('leaves the ungranted environment out of include=serving, on a page and on one flag', async () => {
    const owner = await expectOk(app, 'GET', `${p}/flags?include=serving`);
    expect(owner[0].environments.map((e: { environment_key: string }) => e.environment_key).sort()).toEqual(['development', 'production']);
    const list = await byToken(`${p}/flags?include=serving`);
    expect(list.status).toBe(200);
    expect(list.body.data[0].environments.map((e: { environment_key: string }) => e.environment_key)).toEqual(['development']);
    const one = await byToken(`${p}/flags/f1?include=serving`);
    expect(one.status).toBe(200);
    expect(one.body.data.environments.map((e: { environment_key: string }) => e.environment_key)).toEqual(['development']);
    expect(JSON.stringify(one.body)).not.toContain('production');
  });

  it('answers an on/off filter on the ungranted environment as on an unknown one', async () => {
    expect((await expectOk(app, 'GET', `${p}/flags?on=production`)).map((f: { key: string }) => f.key)).toEqual(['f1']);
    for (const filter of ['on=production', 'off=production', 'on=nowhere']) {
      const res = await byToken(`${p}/flags?${filter}`);
      expect(res.status, filter).toBe(422);
      expect(res.body.code, filter).toBe('reference_not_found');
    }
    const granted = await byToken(`${p}/flags?off=development`);
    expect(granted.status).toBe(200);
    expect(granted.body.data.map((f: { key: string }) => f.key)).toEqual(['f1']);
  });
});
