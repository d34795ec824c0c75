import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectNoWrites } from './admin-support.js';

const password = 'correct horse battery staple';

/**
 * Plan reports every refusal apply would make, by the environments' stored settings; a plan with
 * no refusal applies. The typed confirmation guard reads the stored setting, never the file's.
 */
describeEachDatabase('flags as code: plan lists the refusals apply would make', (db) => {
  let app: TestApp;
  let session: { cookie: string; csrf: string };
  const projectKey = `refusals-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const bySession = (method: string, path: string, body?: unknown) =>
    app.request(method, `/management/v1${path}`, {
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
      ...(body === undefined ? {} : { body }),
    });
  const exported = async () => (await app.mgmt('GET', `${p}/configuration`)).body;
  const serveIn = (file: any, flag: string, environment: string, value: string) => {
    file.flags.find((f: { key: string }) => f.key === flag).environments[environment] = { value, rules: [], rollout: null };
    return file;
  };

  beforeAll(async () => {
    app = await startTestApp(db);
    const owner = await app.knex('accounts').where('ulid', app.ownerUlid).first('email');
    await ok('PUT', `/accounts/${app.ownerUlid}/password`, { password });
    const signIn = await app.request('POST', '/management/v1/session', { body: { email: owner.email, password } });
    session = { cookie: (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string, csrf: signIn.body.data.csrf_token };
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Refusals',
      environments: [
        { key: 'production', name: 'Production', comments_required: true },
        { key: 'locked', name: 'Locked' },
      ],
    });
    await ok('POST', `${p}/flags`, { key: 'banner-text', name: 'Banner text', type: 'string' });
    await ok('POST', `${p}/flags/banner-text/values`, { display: 'Welcome' });
    await ok('POST', `${p}/flags/banner-text/values`, { display: 'Sale' });
    await ok('PUT', `${p}/environments/locked`, { name: 'Locked', confirmation_required: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reports a missing publish comment, with how to give one, and applies once it is given', async () => {
    const file = serveIn(await exported(), 'banner-text', 'production', 'Sale');
    const planned = await app.mgmt('POST', `${p}/configuration/plan`, file);
    expect(planned.status).toBe(200);
    expect(planned.body.data.changes.map((c: { action: string; kind: string; key: string }) => `${c.action} ${c.kind} ${c.key}`)).toEqual([
      'publish serving banner-text',
    ]);
    expect(planned.body.data.refusals).toEqual([
      {
        code: 'comment_required',
        environment: 'production',
        flag: 'banner-text',
        message: expect.stringContaining('needs a comment'),
        remedy: expect.stringMatching(/--comment.*\?comment=/),
      },
    ]);
    const refused = await expectNoWrites(app, () => app.mgmt('POST', `${p}/configuration/apply`, file));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('comment_required');

    const withComment = await app.mgmt('POST', `${p}/configuration/plan?comment=Release`, file);
    expect(withComment.body.data.refusals).toEqual([]);
    const applied = await app.mgmt('POST', `${p}/configuration/apply?comment=Release`, file);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.refusals).toEqual([]);
  });

  it('guards a confirmation_required environment by its stored setting, even when the file lifts it', async () => {
    const file = serveIn(await exported(), 'banner-text', 'locked', 'Sale');
    file.environments.find((e: { key: string }) => e.key === 'locked').confirmation_required = false;
    const planned = await app.mgmt('POST', `${p}/configuration/plan?confirmation=locked`, file);
    expect(planned.body.data.refusals).toEqual([
      expect.objectContaining({ code: 'confirmation_required', environment: 'locked', flag: null }),
    ]);
    const refused = await expectNoWrites(app, () => app.mgmt('POST', `${p}/configuration/apply?confirmation=locked`, file));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('confirmation_required');
    expect((await ok('GET', `${p}/environments/locked`)).confirmation_required).toBe(true);

    // Lifting the setting alone is a protected change of the environment too.
    const liftOnly = await exported();
    liftOnly.environments.find((e: { key: string }) => e.key === 'locked').confirmation_required = false;
    const lift = await expectNoWrites(app, () => app.mgmt('POST', `${p}/configuration/apply`, liftOnly));
    expect(lift.status).toBe(422);
    expect(lift.body.code).toBe('confirmation_required');

    // A console session that typed the key: the plan shows no refusal, and apply applies.
    const sessionPlan = await bySession('POST', `${p}/configuration/plan?confirmation=locked`, file);
    expect(sessionPlan.body.data.refusals).toEqual([]);
    const unconfirmed = await bySession('POST', `${p}/configuration/plan`, file);
    expect(unconfirmed.body.data.refusals).toEqual([expect.objectContaining({ code: 'confirmation_required', environment: 'locked' })]);
    const applied = await bySession('POST', `${p}/configuration/apply?confirmation=locked`, file);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect((await ok('GET', `${p}/environments/locked`)).confirmation_required).toBe(false);
  });
});
