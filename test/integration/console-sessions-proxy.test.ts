import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const password = 'correct horse battery staple';

/** Console sign-in behind a proxy that terminates https: the Origin a browser sends is the proxy's. */
describeEachDatabase('console sessions behind a proxy', (db) => {
  const proxies: { name: string; config: object; forwarded: Record<string, string> }[] = [
    { name: 'VEXIL_PUBLIC_URL', config: { publicOrigin: 'https://flags.example.test' }, forwarded: {} },
    {
      name: 'VEXIL_TRUST_PROXY',
      config: { trustProxy: true },
      forwarded: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'flags.example.test' },
    },
  ];
  describe.each(proxies)('with $name', ({ config, forwarded }) => {
    let app: TestApp;
    let email: string;
    const projectKey = `proxied-${Date.now().toString(36)}`;

    beforeAll(async () => {
      app = await startTestApp(db, { config });
      email = (await app.knex('accounts').where('ulid', app.ownerUlid).first('email')).email;
      await expectOk(app, 'PUT', `/accounts/${app.ownerUlid}/password`, { password });
      await expectOk(app, 'POST', '/projects', { key: projectKey, name: 'Proxied' });
    });
    afterAll(async () => {
      await app?.close();
    });

    const fromBrowser = (origin: string, extra: Record<string, string> = {}) => ({ ...forwarded, origin, ...extra });

    it('signs in from the public https address with a Secure cookie, and the session writes from there', async () => {
      const signedIn = await app.request('POST', '/management/v1/session', {
        headers: fromBrowser('https://flags.example.test'),
        body: { email, password },
      });
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      const setCookie = signedIn.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/; secure/i);
      expect(setCookie).toMatch(/; httponly/i);
      const cookie = setCookie.split(';')[0] as string;
      const created = await app.request('POST', `/management/v1/projects/${projectKey}/flags`, {
        headers: fromBrowser('https://flags.example.test', { cookie, 'x-csrf-token': signedIn.body.data.csrf_token }),
        body: { key: 'from-the-proxy', name: 'Through the proxy', type: 'boolean' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      // Any other origin is still refused, and writes nothing.
      for (const origin of ['https://evil.example', 'http://flags.example.test']) {
        const foreign = await app.request('POST', `/management/v1/projects/${projectKey}/flags`, {
          headers: fromBrowser(origin, { cookie, 'x-csrf-token': signedIn.body.data.csrf_token }),
          body: { key: 'foreign', name: 'Foreign', type: 'boolean' },
        });
        expect(foreign.status).toBe(403);
        expect(foreign.body.code).toBe('csrf_failed');
      }
      expect(await app.knex('flags').where('key', 'foreign')).toEqual([]);
      const signOut = await app.request('DELETE', '/management/v1/session', {
        headers: fromBrowser('https://flags.example.test', { cookie, 'x-csrf-token': signedIn.body.data.csrf_token }),
      });
      expect(signOut.status).toBe(200);
      expect(signOut.headers.get('set-cookie')).toMatch(/; secure/i);
    });
  });
});
