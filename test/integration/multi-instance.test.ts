import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { describeEachDatabase } from '../support/databases.js';
import { redisAvailable, testRedisUrl } from '../support/redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createAccountWithToken, createManagementToken } from './admin-support.js';
import { unique, waitFor } from './public-fixtures.js';

/**
 * Two instances on one database (an instance is stateless apart from its caches: README, "Running several instances"). A change
 * made through instance A's management API is served by instance B within one second, and a key
 * revoked through A stops working on B within one second.
 */
describeEachDatabase('two instances on one database', (db) => {
  let a: TestApp;
  let b: TestApp;
  const projectKey = unique('multi');
  let serverKey: string;
  let keyUlid: string;

  /** Waits until `check` holds on B; returns how long it took from `since`. */
  async function servedWithinASecond(what: string, since: number, check: () => Promise<boolean>): Promise<number> {
    await waitFor(async () => check(), 1000, `${what} on instance B`);
    return Date.now() - since;
  }

  beforeAll(async () => {
    // The production poll interval (VEXIL_REVISION_POLL_MS default), not the suites' faster one.
    const config = { revisionPollMs: 250 };
    a = await startTestApp(db, { config });
    b = await startTestApp(db, { config, databaseUrl: a.composition.core.config.databaseUrl, keepDatabase: true });
    const project = await a.mgmt('POST', '/projects', {
      key: projectKey,
      name: 'Multi',
      environments: [{ key: 'production', name: 'Production' }],
    });
    expect(project.status).toBe(200);
    const key = await a.mgmt('POST', `/projects/${projectKey}/environments/production/keys`, { kind: 'server' });
    expect(key.status).toBe(200);
    serverKey = key.body.data.key;
    keyUlid = key.body.data.ulid;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('serves a key created through A on B within a second', async () => {
    const elapsed = await servedWithinASecond('new key', Date.now(), async () => {
      return (await b.request('GET', '/v1/flags', { apiKey: serverKey })).status === 200;
    });
    expect(elapsed).toBeLessThan(1000);
  });

  it('serves a flag created and published through A on B within a second', async () => {
    const created = await a.mgmt('POST', `/projects/${projectKey}/flags`, { key: 'multi-flag', name: 'Multi flag', type: 'boolean' });
    expect(created.status).toBe(200);
    let since = Date.now();
    await servedWithinASecond('created flag', since, async () => {
      const res = await b.request('GET', '/v1/flags/multi-flag', { apiKey: serverKey });
      return res.status === 200 && res.body.data.flag.value.boolean === false;
    });

    const values = await a.mgmt('GET', `/projects/${projectKey}/flags/multi-flag/values`);
    const on = values.body.data.find((v: { value: unknown }) => v.value === true);
    const envPath = `/projects/${projectKey}/flags/multi-flag/environments/production`;
    const draft = await a.mgmt('POST', `${envPath}/targets`);
    expect(draft.status).toBe(200);
    const updated = await a.mgmt('PUT', `${envPath}/targets/${draft.body.data.ulid}`, { value_ulid: on.ulid });
    expect(updated.status).toBe(200);
    const published = await a.mgmt('PUT', `${envPath}/targets/${draft.body.data.ulid}/publish`, { comment: 'on' });
    expect(published.status).toBe(200);
    since = Date.now();
    const elapsed = await servedWithinASecond('published value', since, async () => {
      const res = await b.request('GET', '/v1/flags/multi-flag', { apiKey: serverKey });
      return res.status === 200 && res.body.data.flag.value.boolean === true;
    });
    expect(elapsed).toBeLessThan(1000);
    // And B's management preview agrees at once.
    const preview = await b.mgmt('GET', `${envPath}/evaluate`);
    expect(preview.body.data).toMatchObject({ value: true, resolved_by: 'target' });
  });

  it('announces the new ETag on B’s stream after a change through A', async () => {
    const controller = new AbortController();
    const res = await fetch(`${b.baseUrl}/v1/stream`, { headers: { 'X-VEXIL-API-KEY': serverKey }, signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const etags: string[] = [];
    const reading = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          for (const match of decoder.decode(value).matchAll(/data: (\{.*\})/g)) etags.push(JSON.parse(match[1]!).etag);
        }
      } catch {
        // aborted
      }
    })();
    try {
      await waitFor(async () => etags.length >= 1, 2000, 'first etag');
      const renamed = await a.mgmt('PUT', `/projects/${projectKey}/flags/multi-flag`, { name: 'Renamed', permanent: false });
      expect(renamed.status).toBe(200);
      const since = Date.now();
      await waitFor(async () => etags.length >= 2, 1000, 'etag after the change');
      expect(Date.now() - since).toBeLessThan(1000);
      const payload = await b.request('GET', '/v1/payload', { apiKey: serverKey });
      expect(payload.headers.get('etag')).toBe(etags.at(-1));
      const flag = await b.request('GET', '/v1/flags/multi-flag', { apiKey: serverKey });
      expect(flag.body.data.flag.name).toBe('Renamed');
    } finally {
      controller.abort();
      await reading;
    }
  });

  it('gives both instances the same ETag for the same revision', async () => {
    const fromA = await a.request('GET', '/v1/payload', { apiKey: serverKey });
    const fromB = await b.request('GET', '/v1/payload', { apiKey: serverKey });
    expect(fromA.body.data.revision).toBe(fromB.body.data.revision);
    expect(fromA.headers.get('etag')).toBe(fromB.headers.get('etag'));
    const revalidated = await b.request('GET', '/v1/payload', {
      apiKey: serverKey,
      headers: { 'If-None-Match': fromA.headers.get('etag')! },
    });
    expect(revalidated.status).toBe(304);
  });

  it('stops accepting a management token revoked through A on B within a second', async () => {
    const created = await a.mgmt('POST', '/tokens', { name: 'Multi', scopes: ['projects:read'] });
    expect(created.status).toBe(200);
    const bearer = { token: created.body.data.token as string };
    // B has looked the token up (and may keep it for one poll interval).
    expect((await b.request('GET', '/management/v1/projects', bearer)).status).toBe(200);
    expect((await b.request('GET', '/management/v1/projects', bearer)).status).toBe(200);
    expect((await a.mgmt('DELETE', `/tokens/${created.body.data.ulid}`)).status).toBe(200);
    expect((await a.request('GET', '/management/v1/projects', bearer)).status).toBe(401);
    const elapsed = await servedWithinASecond('token revocation', Date.now(), async () => {
      return (await b.request('GET', '/management/v1/projects', bearer)).status === 401;
    });
    expect(elapsed).toBeLessThan(1000);
  });

  it('ends the access of an account deleted through A on B within one poll interval: its tokens, the tokens it made, its console session', async () => {
    const account = await createAccountWithToken(a, 'admin');
    const made = await createManagementToken(a, ['projects:read'], {}, account.token);
    const password = 'correct horse battery staple';
    // The owner's password for the account is temporary: the person chooses their own first.
    expect((await a.mgmt('PUT', `/accounts/${account.ulid}/password`, { password: 'temporary from the owner' })).status).toBe(200);
    const temporary = await fetch(`${a.baseUrl}/management/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: 'temporary from the owner' }),
    });
    const temporaryCookie = (temporary.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csrf = ((await temporary.json()) as { data: { csrf_token: string } }).data.csrf_token;
    const chosen = await a.request('PUT', '/management/v1/session/password', {
      headers: { cookie: temporaryCookie, 'x-csrf-token': csrf },
      body: { current_password: 'temporary from the owner', new_password: password },
    });
    expect(chosen.status).toBe(200);
    const session = await fetch(`${b.baseUrl}/management/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password }),
    });
    expect(session.status).toBe(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    const onB = [
      () => b.request('GET', '/management/v1/projects', { token: account.token }),
      () => b.request('GET', '/management/v1/projects', { token: made.token }),
      () => b.request('GET', '/management/v1/projects', { headers: { cookie } }),
    ];
    // B has looked each up (and may keep the tokens for one poll interval).
    for (const call of [...onB, ...onB]) expect((await call()).status).toBe(200);

    expect((await a.mgmt('DELETE', `/accounts/${account.ulid}`)).status).toBe(200);
    const since = Date.now();
    await waitFor(
      async () => (await Promise.all(onB.map(async (call) => (await call()).status))).every((status) => status === 401),
      1000,
      'deleted account on B',
    );
    // One poll interval (250 ms), plus the time of the requests that notice it on a busy machine.
    expect(Date.now() - since).toBeLessThan(750);
    for (const call of onB) expect((await call()).body).toMatchObject({ status: 'error' });
  });

  it('stops accepting a key revoked through A on B within a second', async () => {
    const revoked = await a.mgmt('DELETE', `/projects/${projectKey}/environments/production/keys/${keyUlid}`);
    expect(revoked.status).toBe(200);
    const elapsed = await servedWithinASecond('revocation', Date.now(), async () => {
      return (await b.request('GET', '/v1/flags', { apiKey: serverKey })).status === 401;
    });
    expect(elapsed).toBeLessThan(1000);
  });
});

/**
 * With REDIS_URL, a change is announced over Redis: instance B polls only once a minute here,
 * so serving the change within a second proves the notification, not the poll, delivered it.
 */
const redisUrl = testRedisUrl;
const haveRedis = redisAvailable;
describeEachDatabase('two instances with Redis change notifications', (db) => {
  let a: TestApp;
  let b: TestApp;
  const projectKey = unique('redis');
  let serverKey: string;

  beforeAll(async () => {
    if (!haveRedis) return;
    a = await startTestApp(db, { config: { redisUrl, revisionPollMs: 60_000 } });
    await a.mgmt('POST', '/projects', { key: projectKey, name: 'Redis', environments: [{ key: 'production', name: 'Production' }] });
    serverKey = (await a.mgmt('POST', `/projects/${projectKey}/environments/production/keys`, { kind: 'server' })).body.data.key;
    await a.mgmt('POST', `/projects/${projectKey}/flags`, { key: 'announced', name: 'Announced', type: 'boolean' });
    // B starts after the key exists: its key cache loads it at start (its pollers are slow here).
    b = await startTestApp(db, {
      config: { redisUrl, revisionPollMs: 60_000 },
      databaseUrl: a.composition.core.config.databaseUrl,
      keepDatabase: true,
    });
    // Let B subscribe before changes are announced.
    await waitFor(async () => (await b.request('GET', '/v1/flags/announced', { apiKey: serverKey })).status === 200, 3000, 'B ready');
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it.skipIf(!haveRedis)('serves a change made through A on B within a second, long before B polls', async () => {
    const renamed = await a.mgmt('PUT', `/projects/${projectKey}/flags/announced`, { name: 'Announced twice', permanent: false });
    expect(renamed.status).toBe(200);
    const since = Date.now();
    await waitFor(
      async () => (await b.request('GET', '/v1/flags/announced', { apiKey: serverKey })).body.data.flag.name === 'Announced twice',
      1000,
      'announced change on B',
    );
    expect(Date.now() - since).toBeLessThan(1000);
  });
});

/**
 * Two deployments on one Redis with different VEXIL_REDIS_CHANNEL: each announces its changes on
 * its own channel, so neither rebuilds on the other's announcements. (The deployments share one
 * database here only so that a wrongly received announcement would show: the other deployment
 * would serve the change long before its own poll, once a minute.)
 */
describeEachDatabase('deployments with their own Redis channels', (db) => {
  const tag = randomBytes(4).toString('hex');
  const channels = { blue: `t-${tag}-blue:environment-revisions`, green: `t-${tag}-green:environment-revisions` };
  const apps: { blueA?: TestApp; blueB?: TestApp; green?: TestApp } = {};
  const heard: Record<string, number> = { [channels.blue]: 0, [channels.green]: 0 };
  const listener = createClient({ url: redisUrl });
  const projectKey = unique('channels');
  let serverKey = '';

  const flagName = async (app: TestApp) => (await app.request('GET', '/v1/flags/announced', { apiKey: serverKey })).body.data?.flag?.name;

  beforeAll(async () => {
    if (!haveRedis) return;
    listener.on('error', () => {});
    await listener.connect();
    for (const channel of Object.values(channels)) await listener.subscribe(channel, () => (heard[channel] = (heard[channel] ?? 0) + 1));
    const config = (channel: string) => ({ redisUrl, redisChannel: channel, revisionPollMs: 60_000 });
    apps.blueA = await startTestApp(db, { config: config(channels.blue) });
    const shared = { databaseUrl: apps.blueA.composition.core.config.databaseUrl, keepDatabase: true };
    await apps.blueA.mgmt('POST', '/projects', {
      key: projectKey,
      name: 'Channels',
      environments: [{ key: 'production', name: 'Production' }],
    });
    serverKey = (await apps.blueA.mgmt('POST', `/projects/${projectKey}/environments/production/keys`, { kind: 'server' })).body.data.key;
    await apps.blueA.mgmt('POST', `/projects/${projectKey}/flags`, { key: 'announced', name: 'First', type: 'boolean' });
    // Started after the key and flag exist: they load both at start (their polls are slow here).
    apps.blueB = await startTestApp(db, { config: config(channels.blue), ...shared });
    apps.green = await startTestApp(db, { config: config(channels.green), ...shared });
    for (const app of [apps.blueB, apps.green]) await waitFor(async () => (await flagName(app)) === 'First', 3000, 'instance ready');
    // Let both subscribe before changes are announced.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  afterAll(async () => {
    for (const app of [apps.green, apps.blueB, apps.blueA]) await app?.close();
    if (listener.isOpen) await listener.close();
  });

  it.skipIf(!haveRedis)(
    'announce a change on their own channel only, so only instances of the same deployment rebuild at once',
    async () => {
      const before = { ...heard };
      const renamed = await apps.blueA!.mgmt('PUT', `/projects/${projectKey}/flags/announced`, { name: 'Second', permanent: false });
      expect(renamed.status).toBe(200);
      await waitFor(async () => (await flagName(apps.blueB!)) === 'Second', 1000, 'the change on the other blue instance');
      expect(heard[channels.blue]).toBeGreaterThan(before[channels.blue]!);
      // The green deployment heard nothing and still serves what it loaded at start.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(heard[channels.green]).toBe(before[channels.green]);
      expect(await flagName(apps.green!)).toBe('First');

      // And the other way round.
      const fromGreen = await apps.green!.mgmt('PUT', `/projects/${projectKey}/flags/announced`, { name: 'Third', permanent: false });
      expect(fromGreen.status).toBe(200);
      await waitFor(async () => heard[channels.green]! > before[channels.green]!, 1000, 'the green announcement');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await flagName(apps.blueB!)).toBe('Second');
    },
  );
});
