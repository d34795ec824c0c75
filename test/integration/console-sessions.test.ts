import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createAccountWithToken } from './admin-support.js';

const password = 'correct horse battery staple';

describeEachDatabase('console sessions', (db) => {
  let app: TestApp;
  let ownerEmail: string;
  const projectKey = `console-${Date.now().toString(36)}`;

  /** Signs in and returns the cookie header value and the CSRF token. */
  async function signIn(email: string, pw = password): Promise<{ cookie: string; csrf: string; setCookie: string }> {
    const res = await fetch(`${app.baseUrl}/management/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: pw }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    const body = (await res.json()) as { data: { csrf_token: string } };
    return { cookie: setCookie.split(';')[0] as string, csrf: body.data.csrf_token, setCookie };
  }

  const withSession = (session: { cookie: string; csrf?: string }, extra: Record<string, string> = {}) => ({
    headers: { cookie: session.cookie, ...(session.csrf ? { 'x-csrf-token': session.csrf } : {}), ...extra },
  });

  beforeAll(async () => {
    app = await startTestApp(db, { config: { sessions: { hours: 12, idleMinutes: 60, signInAttempts: 5, temporaryPasswordDays: 7 } } });
    const owner = await app.knex('accounts').where('ulid', app.ownerUlid).first('email');
    ownerEmail = owner.email;
    await expectOk(app, 'PUT', `/accounts/${app.ownerUlid}/password`, { password });
    await expectOk(app, 'POST', '/projects', {
      key: projectKey,
      name: 'Console',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
      ],
    });
    await expectOk(app, 'PUT', `/projects/${projectKey}/environments/production`, { name: 'Production', confirmation_required: true });
    await expectOk(app, 'POST', `/projects/${projectKey}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('signs in with email and password, setting an HttpOnly SameSite=Strict cookie and answering the CSRF token', async () => {
    const session = await signIn(ownerEmail.toUpperCase());
    expect(session.setCookie).toMatch(/^vexil_session=ses_[0-9A-Za-z]{40}; /);
    expect(session.setCookie).toMatch(/; path=\//i);
    expect(session.setCookie).toMatch(/; samesite=strict/i);
    expect(session.setCookie).toMatch(/; httponly/i);
    expect(session.setCookie).not.toMatch(/; secure/i);
    const current = await app.request('GET', '/management/v1/session', withSession(session));
    expect(current.status).toBe(200);
    expect(current.body.data).toMatchObject({ account: { email: ownerEmail, role: 'owner', projects: null }, csrf_token: session.csrf });
    // Only a digest of the session secret is stored.
    const secret = session.cookie.split('=')[1] as string;
    const rows = await app.knex('console_sessions').select('digest');
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('refuses a wrong password with one message, audits it, and limits failures per account and IP', async () => {
    const wrong = await app.request('POST', '/management/v1/session', { body: { email: ownerEmail, password: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Wrong email or password.');
    const unknown = await app.request('POST', '/management/v1/session', { body: { email: 'nobody@example.test', password: 'nope' } });
    expect(unknown.body.message).toBe('Wrong email or password.');
    await new Promise((r) => setTimeout(r, 30));
    const entry = await app
      .knex('audit_entries')
      .where('action', 'auth.sign_in')
      .orderBy('ulid', 'desc')
      .first('result', 'status_code', 'subject_label');
    // A failed attempt is recorded under the email it tried.
    expect(entry).toMatchObject({ result: 'denied_auth', status_code: 401, subject_label: 'nobody@example.test' });
    let limited;
    for (let i = 0; i < 6; i++)
      limited = await app.request('POST', '/management/v1/session', { body: { email: 'Victim@example.test', password: 'x' } });
    expect(limited!.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 30));
    const attempts = await app
      .knex('audit_entries')
      .where({ action: 'auth.sign_in', subject_label: 'victim@example.test' })
      .select('status_code');
    expect(attempts.map((a) => Number(a.status_code)).sort()).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('authenticates management requests with the account rights, and its actor is the account', async () => {
    const session = await signIn(ownerEmail);
    const projects = await app.request('GET', '/management/v1/projects', withSession(session));
    expect(projects.status).toBe(200);
    const created = await app.request('POST', `/management/v1/projects/${projectKey}/flags`, {
      ...withSession(session),
      body: { key: 'from-console', name: 'From the console', type: 'boolean' },
    });
    expect(created.status).toBe(200);
    await new Promise((r) => setTimeout(r, 30));
    const entry = await app
      .knex('audit_entries')
      .where('action', 'flag.created')
      .orderBy('ulid', 'desc')
      .first('actor_type', 'actor_email', 'token_name');
    expect(entry).toMatchObject({ actor_type: 'account', actor_email: ownerEmail, token_name: 'Console session' });
  });

  it('refuses state-changing requests without the CSRF token or from another origin, and cross-origin sign-ins', async () => {
    const session = await signIn(ownerEmail);
    const noToken = await app.request('POST', `/management/v1/projects/${projectKey}/flags`, {
      ...withSession({ cookie: session.cookie }),
      body: { key: 'csrf-1', name: 'x', type: 'boolean' },
    });
    expect(noToken.status).toBe(403);
    const foreign = await app.request('POST', `/management/v1/projects/${projectKey}/flags`, {
      ...withSession(session, { origin: 'https://evil.example' }),
      body: { key: 'csrf-2', name: 'x', type: 'boolean' },
    });
    expect(foreign.status).toBe(403);
    expect(await app.knex('flags').whereIn('key', ['csrf-1', 'csrf-2'])).toEqual([]);
    const signInElsewhere = await app.request('POST', '/management/v1/session', {
      body: { email: ownerEmail, password },
      headers: { origin: 'https://evil.example' },
    });
    expect(signInElsewhere.status).toBe(403);
    // A Bearer token is judged by itself: no CSRF token needed.
    const bearer = await app.mgmt('POST', `/projects/${projectKey}/flags`, { key: 'bearer-ok', name: 'x', type: 'boolean' });
    expect(bearer.status).toBe(200);
  });

  it('publishes in a confirmation_required environment only from a session with the typed key', async () => {
    const base = `/management/v1/projects/${projectKey}/flags/checkout/environments/production/targets`;
    const draft = await app.mgmt('POST', `/projects/${projectKey}/flags/checkout/environments/production/targets`);
    const bearer = await app.request('PUT', `${base}/${draft.body.data.ulid}/publish`, {
      token: app.ownerToken,
      body: { confirmation: 'production' },
    });
    expect(bearer.status).toBe(422);
    const session = await signIn(ownerEmail);
    const missing = await app.request('PUT', `${base}/${draft.body.data.ulid}/publish`, { ...withSession(session), body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.confirmation).toEqual(['Type the environment\'s key "production" to confirm publishing here.']);
    const wrongKey = await app.request('PUT', `${base}/${draft.body.data.ulid}/publish`, {
      ...withSession(session),
      body: { confirmation: 'staging' },
    });
    expect(wrongKey.status).toBe(422);
    const published = await app.request('PUT', `${base}/${draft.body.data.ulid}/publish`, {
      ...withSession(session),
      body: { confirmation: 'production' },
    });
    expect(published.status).toBe(200);
    expect(published.body.data.status).toBe('published');
  });

  it('ends sessions at sign-out, after the idle limit, and when the password changes', async () => {
    const first = await signIn(ownerEmail);
    const signedOut = await app.request('DELETE', '/management/v1/session', withSession(first));
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.get('set-cookie')).toMatch(/^vexil_session=; /);
    expect((await app.request('GET', '/management/v1/session', withSession(first))).status).toBe(401);

    const idle = await signIn(ownerEmail);
    app.clock.advance(61 * 60_000);
    expect((await app.request('GET', '/management/v1/session', withSession(idle))).status).toBe(401);

    const a = await signIn(ownerEmail);
    const b = await signIn(ownerEmail);
    const changed = await app.request('PUT', '/management/v1/session/password', {
      ...withSession(a),
      body: { current_password: password, new_password: 'an even longer passphrase' },
    });
    expect(changed.status).toBe(200);
    expect((await app.request('GET', '/management/v1/session', withSession(b))).status).toBe(401);
    const tooShort = await app.request('PUT', `/management/v1/accounts/${app.ownerUlid}/password`, {
      token: app.ownerToken,
      body: { password: 'short' },
    });
    expect(tooShort.status).toBe(422);
    await expectOk(app, 'PUT', `/accounts/${app.ownerUlid}/password`, { password });
  });

  it('audits a changed own password with the account as its subject, and a refused change with none', async () => {
    const member = await createAccountWithToken(app, 'member', [projectKey]);
    await expectOk(app, 'PUT', `/accounts/${member.ulid}/password`, { password: 'temporary for the audit' });
    const session = await signIn(member.email, 'temporary for the audit');
    const change = (current: string) =>
      app.request('PUT', '/management/v1/session/password', {
        ...withSession(session),
        body: { current_password: current, new_password: 'the audited passphrase' },
      });
    expect((await change('not the password')).status).toBe(422);
    expect((await change('temporary for the audit')).status).toBe(200);
    const entries = await app
      .knex('audit_entries')
      .where({ actor_ulid: member.ulid, http_path: '/management/v1/session/password' })
      .orderBy('ulid')
      .select('action', 'subject_type', 'subject_ulid', 'subject_label', 'result', 'status_code');
    expect(entries.map((e) => ({ ...e, status_code: Number(e.status_code) }))).toEqual([
      {
        action: 'account.password_changed',
        subject_type: null,
        subject_ulid: null,
        subject_label: null,
        result: 'invalid',
        status_code: 422,
      },
      {
        action: 'account.password_changed',
        subject_type: 'account',
        subject_ulid: member.ulid,
        subject_label: member.email,
        result: 'success',
        status_code: 200,
      },
    ]);
  });

  it('gives a member only the projects it was given', async () => {
    const other = `other-${Date.now().toString(36)}`;
    await expectOk(app, 'POST', '/projects', { key: other, name: 'Other' });
    const member = await createAccountWithToken(app, 'member', [projectKey]);
    // The owner's password for the member is temporary: the member chooses their own first.
    await expectOk(app, 'PUT', `/accounts/${member.ulid}/password`, { password: 'temporary for the member' });
    const temporary = await signIn(member.email, 'temporary for the member');
    await app.request('PUT', '/management/v1/session/password', {
      ...withSession(temporary),
      body: { current_password: 'temporary for the member', new_password: password },
    });
    const session = await signIn(member.email);
    const listed = await app.request('GET', '/management/v1/projects', withSession(session));
    expect(listed.body.data.map((p: { key: string }) => p.key)).toEqual([projectKey]);
    expect((await app.request('GET', `/management/v1/projects/${other}`, withSession(session))).status).toBe(404);
    const setOwner = await app.request('PUT', `/management/v1/accounts/${app.ownerUlid}/password`, {
      ...withSession(session),
      body: { password: 'a member cannot do this' },
    });
    expect(setOwner.status).toBe(403);
  });
});
