import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createAccountWithToken, lastAuditEntry } from './admin-support.js';

interface Session {
  cookie: string;
  csrf: string;
  passwordChangeRequired: boolean;
}

/** POST /session; returns the answer, and the session when it succeeded. */
async function trySignIn(app: TestApp, email: string, password: string): Promise<{ status: number; body: any; session?: Session }> {
  const res = await app.request('POST', '/management/v1/session', { body: { email, password } });
  if (res.status !== 200) return { status: res.status, body: res.body };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  return {
    status: 200,
    body: res.body,
    session: { cookie, csrf: res.body.data.csrf_token, passwordChangeRequired: res.body.data.password_change_required },
  };
}

async function signIn(app: TestApp, email: string, password: string): Promise<Session> {
  const answer = await trySignIn(app, email, password);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.session as Session;
}

const withSession = (session: Session, body?: unknown) => ({
  headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
  ...(body === undefined ? {} : { body }),
});

/** GET /session with the cookie: 200 while the session lives, 401 once it has ended. */
async function sessionStatus(app: TestApp, session: Session): Promise<number> {
  return (await app.request('GET', '/management/v1/session', withSession(session))).status;
}

const ownPassword = 'a password of my own choosing';

// How console sessions end and what a temporary password allows, against SQLite and MariaDB.
describeEachDatabase('console session lifecycle', (db) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(db, { config: { sessions: { hours: 2, idleMinutes: 90, signInAttempts: 50, temporaryPasswordDays: 7 } } });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** An admin account whose own password is set (it signed in with the temporary one and chose its own). */
  async function accountWithOwnPassword(role: 'admin' | 'member' = 'member'): Promise<{ ulid: string; email: string; token: string }> {
    const account = await createAccountWithToken(app, role, role === 'member' ? [] : undefined);
    await expectOk(app, 'PUT', `/accounts/${account.ulid}/password`, { password: 'temporary password 1' });
    const temporary = await signIn(app, account.email, 'temporary password 1');
    const changed = await app.request(
      'PUT',
      '/management/v1/session/password',
      withSession(temporary, { current_password: 'temporary password 1', new_password: ownPassword }),
    );
    expect(changed.status).toBe(200);
    return account;
  }

  it("refuses a deleted account's session cookie at once, and removes its sessions with the account", async () => {
    const account = await accountWithOwnPassword();
    const session = await signIn(app, account.email, ownPassword);
    expect(await sessionStatus(app, session)).toBe(200);
    await expectOk(app, 'DELETE', `/accounts/${account.ulid}`);
    expect(await sessionStatus(app, session)).toBe(401);
    const write = await app.request('POST', '/management/v1/projects', withSession(session, { key: 'after-delete', name: 'After delete' }));
    expect(write.status).toBe(401);
    expect(await app.knex('console_sessions').where('account_ulid', account.ulid)).toEqual([]);
    expect(await app.knex('projects').where('key', 'after-delete')).toEqual([]);
  });

  it("ends an account's sessions when an admin resets its password, and the new password is temporary", async () => {
    const account = await accountWithOwnPassword();
    const first = await signIn(app, account.email, ownPassword);
    const second = await signIn(app, account.email, ownPassword);
    const admin = await accountWithOwnPassword('admin');
    const reset = await app.request('PUT', `/management/v1/accounts/${account.ulid}/password`, {
      token: admin.token,
      body: { password: 'reset by the admin' },
    });
    expect(reset.status).toBe(200);
    expect(await sessionStatus(app, first)).toBe(401);
    expect(await sessionStatus(app, second)).toBe(401);
    // The old password is gone; the admin's works, but only to choose the person's own.
    expect((await trySignIn(app, account.email, ownPassword)).status).toBe(401);
    const listed = await app.mgmt('GET', '/accounts?per_page=100');
    const shown = listed.body.data.find((a: { ulid: string }) => a.ulid === account.ulid);
    expect(shown.password_status).toBe('temporary');
    expect(Date.parse(shown.password_temporary_until) - app.clock.now().getTime()).toBeGreaterThan(6.9 * 86_400_000);
    const temporary = await signIn(app, account.email, 'reset by the admin');
    expect(temporary.passwordChangeRequired).toBe(true);
  });

  it("lets a temporary password's session only read itself, sign out and choose a new password", async () => {
    const account = await createAccountWithToken(app, 'admin');
    await expectOk(app, 'PUT', `/accounts/${account.ulid}/password`, { password: 'given by the owner' });
    const session = await signIn(app, account.email, 'given by the owner');
    const current = await app.request('GET', '/management/v1/session', withSession(session));
    expect(current.body.data.password_change_required).toBe(true);
    const listed = await app.request('GET', '/management/v1/projects', withSession(session));
    expect([listed.status, listed.body.code]).toEqual([403, 'password_change_required']);
    const created = await app.request('POST', '/management/v1/projects', withSession(session, { key: 'temporary-write', name: 'No' }));
    expect([created.status, created.body.code]).toEqual([403, 'password_change_required']);
    expect(await app.knex('projects').where('key', 'temporary-write')).toEqual([]);
    const refusal = await lastAuditEntry(app);
    expect(refusal).toMatchObject({ action: 'grant.denied', result: 'denied_grant', status_code: 403, actor_email: account.email });
    // The same password again is not a choice.
    const same = await app.request(
      'PUT',
      '/management/v1/session/password',
      withSession(session, { current_password: 'given by the owner', new_password: 'given by the owner' }),
    );
    expect(same.status).toBe(422);
    expect(Object.keys(same.body.errors)).toEqual(['new_password']);
    const chosen = await app.request(
      'PUT',
      '/management/v1/session/password',
      withSession(session, { current_password: 'given by the owner', new_password: ownPassword }),
    );
    expect(chosen.status).toBe(200);
    expect(await sessionStatus(app, session)).toBe(401);
    expect((await trySignIn(app, account.email, 'given by the owner')).status).toBe(401);
    const own = await signIn(app, account.email, ownPassword);
    expect(own.passwordChangeRequired).toBe(false);
    expect((await app.request('GET', '/management/v1/projects', withSession(own))).status).toBe(200);
    const shown = (await app.mgmt('GET', '/accounts?per_page=100')).body.data.find((a: { ulid: string }) => a.ulid === account.ulid);
    expect([shown.password_status, shown.password_temporary_until]).toEqual(['set', null]);
    // A password an owner sets for their own account with their token is their own, not temporary.
    await expectOk(app, 'PUT', `/accounts/${app.ownerUlid}/password`, { password: 'the owner chose this' });
    const owner = await app.knex('accounts').where('ulid', app.ownerUlid).first('email');
    expect((await signIn(app, owner.email, 'the owner chose this')).passwordChangeRequired).toBe(false);
  });

  it('stops accepting a temporary password after VEXIL_TEMPORARY_PASSWORD_DAYS', async () => {
    const account = await createAccountWithToken(app, 'member', []);
    await expectOk(app, 'PUT', `/accounts/${account.ulid}/password`, { password: 'expires in a week' });
    app.clock.advance(7 * 86_400_000 + 60_000);
    const expired = await trySignIn(app, account.email, 'expires in a week');
    expect([expired.status, expired.body.code]).toEqual([401, 'invalid_credentials']);
    expect(expired.body.message).toMatch(/temporary password has expired/);
    // A wrong password still gets the one answer that reveals nothing.
    expect((await trySignIn(app, account.email, 'not the password')).body.message).toBe('Wrong email or password.');
  });

  it('ends a session VEXIL_SESSION_HOURS after sign-in even while it is in use', async () => {
    const account = await accountWithOwnPassword();
    const session = await signIn(app, account.email, ownPassword);
    // Used every 80 minutes (within the 90-minute idle limit), it lives until the 2-hour mark.
    app.clock.advance(80 * 60_000);
    expect(await sessionStatus(app, session)).toBe(200);
    app.clock.advance(39 * 60_000);
    expect(await sessionStatus(app, session)).toBe(200);
    app.clock.advance(2 * 60_000);
    expect(await sessionStatus(app, session)).toBe(401);
    expect(await app.knex('console_sessions').where('account_ulid', account.ulid)).toEqual([]);
  });
});

// The per-address limit needs an app of its own: the limiter counts every test's sign-ins from 127.0.0.1.
describeEachDatabase('console sign-in limit per client address', (db) => {
  let app: TestApp;
  let ownerEmail: string;
  const password = 'the right password here';

  beforeAll(async () => {
    // Two failures per account, so twenty per address.
    app = await startTestApp(db, { config: { sessions: { hours: 12, idleMinutes: 60, signInAttempts: 2, temporaryPasswordDays: 7 } } });
    ownerEmail = (await app.knex('accounts').where('ulid', app.ownerUlid).first('email')).email;
    await expectOk(app, 'PUT', `/accounts/${app.ownerUlid}/password`, { password });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses every account from an address after ten times the per-account limit of failures', async () => {
    // Twenty accounts, one failure each: no account reaches its own limit of two.
    for (let i = 0; i < 20; i++) {
      const res = await app.request('POST', '/management/v1/session', { body: { email: `guess-${i}@example.test`, password: 'wrong' } });
      expect(res.status).toBe(401);
    }
    const right = await app.request('POST', '/management/v1/session', { body: { email: ownerEmail, password } });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('rate_limited');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    const another = await app.request('POST', '/management/v1/session', { body: { email: 'guess-99@example.test', password: 'wrong' } });
    expect(another.status).toBe(429);
    expect(await app.knex('console_sessions')).toEqual([]);
  });
});
