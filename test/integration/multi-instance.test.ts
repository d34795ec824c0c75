import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { redisAvailable, testRedisUrl } from '../support/redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { unique, waitFor } from './public-fixtures.js';

/**
 * Two instances on one database (DESIGN.md section 1: stateless apart from caches). A change
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
    const revalidated = await b.request('GET', '/v1/payload', { apiKey: serverKey, headers: { 'If-None-Match': fromA.headers.get('etag')! } });
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
