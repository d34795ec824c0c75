import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const password = 'correct horse battery staple';

// Ten wrong passwords for the owner must not keep the owner out: the attacker's address is
// slowed, the owner signs in from an address that has not been failing.
describeEachDatabase('console sign-in throttle', (db) => {
  let app: TestApp;
  let ownerEmail: string;
  const signIn = (email: string, pw: string, address: string) =>
    app.request('POST', '/management/v1/session', { body: { email, password: pw }, headers: { 'x-forwarded-for': address } });

  beforeAll(async () => {
    app = await startTestApp(db, { config: { trustProxy: true } });
    ownerEmail = (await app.knex('accounts').where('ulid', app.ownerUlid).first('email')).email;
    expect((await app.mgmt('PUT', `/accounts/${app.ownerUlid}/password`, { password })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('slows the failing address with growing delays, while the owner signs in from another', async () => {
    const attacker = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn(ownerEmail, `wrong ${i}`, attacker)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Even the right password waits at the attacker's address.
    const slowed = await signIn(ownerEmail, password, attacker);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(slowed.headers.get('retry-after'))).toBeLessThan(60);

    const home = await signIn(ownerEmail, password, '198.51.100.7');
    expect(home.status, JSON.stringify(home.body)).toBe(200);
  }, 120_000);

  it('counts every spelling of an address as the one account', async () => {
    // An account of its own: the owner's is still slowed by the attack above.
    const email = `spelling-${Date.now()}@example.test`;
    const account = await app.mgmt('POST', '/accounts', { name: 'Spelling', email, role: 'admin' });
    expect((await app.mgmt('PUT', `/accounts/${account.body.data.ulid}/password`, { password })).status).toBe(200);
    const attacker = '203.0.113.77';
    for (let i = 0; i < 10; i++) {
      const spelling = [email.toUpperCase(), `${email}   `, ` ${email}`][i % 3] as string;
      expect((await signIn(spelling, 'wrong', attacker)).status).toBe(401);
    }
    expect((await signIn(email, 'wrong', attacker)).status).toBe(429);
    // The right password in any spelling opens a session, from an address that has not been failing.
    expect((await signIn(`  ${email.toUpperCase()} `, password, '198.51.100.8')).status).toBe(200);
  }, 120_000);
});
