import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { redisAvailable, testRedisUrl } from '../support/redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { flushPublicAudit, seedEnvironmentKey, seedProject, seedToken } from './audit-fixtures.js';

const limits = { standard: 5, elevated: 8 };

/** Moves the app's clock to the start of the next one-minute window (plus `intoMs`). */
function nextWindow(app: TestApp, intoMs = 10): void {
  const now = app.clock.now().getTime();
  app.clock.advance(60_000 - (now % 60_000) + intoMs);
}

describeEachDatabase('management rate limits', (db) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db, { config: { managementRateLimits: limits } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('limits a standard token per window with headers on every response, then 429 with Retry-After', async () => {
    const token = await seedToken(app, { scopes: ['audit:read'], tier: 'standard' });
    nextWindow(app);
    const windowEnd = Math.ceil((Math.floor(app.clock.now().getTime() / 60_000) + 1) * 60);
    for (let i = 1; i <= limits.standard; i++) {
      const res = await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(limits.standard - i));
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(windowEnd));
    }
    const refused = await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ status: 'error', message: 'Rate limit exceeded.', code: expect.any(String) });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(windowEnd));

    // The refusal is audited with result rate_limited.
    const entries = await app.mgmt('GET', `/audit-logs?management_token_ulid=${token.ulid}&result=rate_limited`);
    expect(entries.body.data).toEqual([
      expect.objectContaining({ action: 'audit_log.listed', result: 'rate_limited', status_code: 429, http_method: 'GET' }),
    ]);

    // A new window starts afresh.
    nextWindow(app);
    const again = await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('counts requests refused for scope, and refuses writes over the limit without changing anything', async () => {
    const token = await seedToken(app, { scopes: ['flags:read'], tier: 'standard' });
    nextWindow(app);
    for (let i = 0; i < limits.standard; i++) {
      const res = await app.request('GET', '/management/v1/audit-logs', { token: token.token });
      expect(res.status).toBe(403);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(limits.standard - 1 - i));
    }
    const projectsBefore = await app.knex('projects').count({ n: '*' }).first();
    const refused = await app.request('POST', '/management/v1/projects', {
      token: token.token,
      body: { key: 'rate-limited-project', name: 'Never created' },
    });
    expect(refused.status).toBe(429);
    expect(await app.knex('projects').count({ n: '*' }).first()).toEqual(projectsBefore);
  });

  it('limits personal access tokens at the elevated tier', async () => {
    nextWindow(app);
    let last;
    for (let i = 1; i <= limits.elevated; i++) {
      last = await app.mgmt('GET', '/audit-logs?per_page=1');
      expect(last.status).toBe(200);
    }
    expect(last?.headers.get('x-ratelimit-limit')).toBe('8');
    expect(last?.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await app.mgmt('GET', '/audit-logs?per_page=1')).status).toBe(429);
    nextWindow(app);
  });

  it('counts each token separately and leaves unlimited tokens without a ceiling or headers', async () => {
    const elevated = await seedToken(app, { scopes: ['audit:read'], tier: 'elevated' });
    const unlimited = await seedToken(app, { scopes: ['audit:read'], tier: 'unlimited' });
    const other = await seedToken(app, { scopes: ['audit:read'], tier: 'standard' });
    nextWindow(app);
    for (let i = 0; i < limits.elevated; i++) {
      expect((await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: elevated.token })).status).toBe(200);
    }
    expect((await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: elevated.token })).status).toBe(429);
    const fresh = await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: other.token });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-ratelimit-remaining')).toBe('4');
    for (let i = 0; i < 20; i++) {
      const res = await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: unlimited.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
      expect(res.headers.get('x-ratelimit-reset')).toBeNull();
    }
  });

  it('sends no rate-limit headers on requests refused before authentication', async () => {
    const res = await app.request('GET', '/management/v1/audit-logs');
    expect(res.status).toBe(401);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describeEachDatabase('console session rate limits', (db) => {
  const consoleReadRateLimit = 20;
  let app: TestApp;
  let session: { cookie: string; csrf: string };
  beforeAll(async () => {
    app = await startTestApp(db, { config: { managementRateLimits: limits, consoleReadRateLimit } });
    nextWindow(app);
    expect((await app.mgmt('PUT', `/accounts/${app.ownerUlid}/password`, { password: 'a console password' })).status).toBe(200);
    const owner = await app.knex('accounts').where('ulid', app.ownerUlid).first('email');
    const signedIn = await fetch(`${app.baseUrl}/management/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: 'a console password' }),
    });
    expect(signedIn.status).toBe(200);
    const body = (await signedIn.json()) as { data: { csrf_token: string } };
    session = { cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string, csrf: body.data.csrf_token };
  });
  afterAll(async () => {
    await app?.close();
  });

  const asSession = (method: string, path: string, body?: unknown) =>
    app.request(method, `/management/v1${path}`, { body, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });

  it("counts a session's reads apart, far above the elevated tier, and its changes at the elevated tier", async () => {
    nextWindow(app);
    // More reads than a token of the elevated tier may make: a person browsing is not refused.
    for (let i = 1; i <= consoleReadRateLimit; i++) {
      const read = await asSession('GET', '/projects');
      expect(read.status).toBe(200);
      expect(read.headers.get('x-ratelimit-limit')).toBe(String(consoleReadRateLimit));
      expect(read.headers.get('x-ratelimit-remaining')).toBe(String(consoleReadRateLimit - i));
    }
    // Past the abuse ceiling the reads are refused, with the time to wait.
    const refusedRead = await asSession('GET', '/projects');
    expect(refusedRead.status).toBe(429);
    expect(refusedRead.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(refusedRead.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Changes keep their own count, at the elevated tier; a change refused for its body still counts.
    for (let i = 1; i <= limits.elevated; i++) {
      const change = await asSession('POST', '/projects', {});
      expect(change.status).toBe(422);
      expect(change.headers.get('x-ratelimit-limit')).toBe(String(limits.elevated));
    }
    const projectsBefore = await app.knex('projects').count({ n: '*' }).first();
    const refusedChange = await asSession('POST', '/projects', { key: 'never-made', name: 'Never made' });
    expect(refusedChange.status).toBe(429);
    expect(await app.knex('projects').count({ n: '*' }).first()).toEqual(projectsBefore);
  });

  it("leaves the account's personal access token its own count", async () => {
    nextWindow(app);
    for (let i = 0; i < consoleReadRateLimit; i++) expect((await asSession('GET', '/projects')).status).toBe(200);
    const byToken = await app.mgmt('GET', '/projects');
    expect(byToken.status).toBe(200);
    expect(byToken.headers.get('x-ratelimit-limit')).toBe(String(limits.elevated));
    expect(byToken.headers.get('x-ratelimit-remaining')).toBe(String(limits.elevated - 1));
  });
});

describeEachDatabase('public rate limits', (db) => {
  let app: TestApp;
  let proxied: TestApp;
  let unlimitedApp: TestApp;
  beforeAll(async () => {
    app = await startTestApp(db, { config: { publicRateLimit: 3 } });
    proxied = await startTestApp(db, { config: { publicRateLimit: 3, trustProxy: true } });
    unlimitedApp = await startTestApp(db, { config: { publicRateLimit: 0 } });
  });
  afterAll(async () => {
    await app?.close();
    await proxied?.close();
    await unlimitedApp?.close();
  });

  it('limits per client IP, counting requests before authentication', async () => {
    nextWindow(app);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request('GET', '/v1/flags');
      statuses.push(res.status);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
    }
    expect(statuses).toEqual([401, 401, 401]);
    const refused = await app.request('GET', '/v1/api-docs');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ status: 'error', message: 'Rate limit exceeded.', code: expect.any(String) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    // X-Forwarded-For is not trusted by default: another claimed address is the same client.
    const spoofed = await app.request('GET', '/v1/api-docs', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(spoofed.status).toBe(429);

    // OFREP clients get OFREP's error body.
    const ofrep = await app.request('POST', '/ofrep/v1/evaluate/flags', { body: { context: {} } });
    expect(ofrep.status).toBe(429);
    expect(ofrep.body).toMatchObject({ errorDetails: 'Rate limit exceeded.' });
    expect(ofrep.headers.get('retry-after')).not.toBeNull();

    // Refusals are audited.
    await flushPublicAudit(app);
    const audited = await app.mgmt('GET', '/api-public-audit-logs?result=rate_limited');
    expect(audited.body.data.length).toBeGreaterThanOrEqual(3);
    expect(audited.body.data[0]).toMatchObject({ result: 'rate_limited', status_code: 429 });

    nextWindow(app);
    expect((await app.request('GET', '/v1/api-docs')).status).toBe(200);
  });

  it('applies to requests with a valid key too', async () => {
    const project = await seedProject(app);
    const key = await seedEnvironmentKey(app, project.environments.production as string);
    nextWindow(app);
    for (let i = 0; i < 3; i++) {
      const res = await app.request('POST', '/v1/flags/anything/usage', { apiKey: key.key });
      expect(res.status).not.toBe(429);
    }
    expect((await app.request('GET', '/v1/flags', { apiKey: key.key })).status).toBe(429);
  });

  it('uses X-Forwarded-For when the proxy is trusted', async () => {
    nextWindow(proxied);
    const as = (ip: string) => proxied.request('GET', '/v1/api-docs', { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await as('198.51.100.1')).status).toBe(200);
    expect((await as('198.51.100.1')).status).toBe(429);
    const other = await as('198.51.100.2');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('is off at 0: no ceiling and no headers', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await unlimitedApp.request('GET', '/v1/api-docs');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});

/** Long enough for both instances to exchange their counts with Redis (every 20 ms here). */
// Twenty exchange intervals (redisSyncMs 20): enough for both instances to send and read back on
// a machine busy with the other suites (seven were not, at a load of 14 on 2 cores).
const exchanged = () => new Promise((resolve) => setTimeout(resolve, 400));

describe.runIf(redisAvailable)('rate limits shared through Redis', () => {
  const redisUrl = testRedisUrl;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    const { testDatabases } = await import('../support/databases.js');
    const db = testDatabases[testDatabases.length - 1];
    if (!db) throw new Error('no test database');
    const config = { redisUrl, managementRateLimits: limits, publicRateLimit: 4, trustProxy: true, redisSyncMs: 20 };
    first = await startTestApp(db, { config });
    // The second instance shares the first one's database (and so its tokens) and Redis.
    second = await startTestApp(db, { config, databaseUrl: first.composition.core.config.databaseUrl, keepDatabase: true });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('enforces one management limit across two instances', async () => {
    const token = await seedToken(first, { scopes: ['audit:read'], tier: 'standard' });
    nextWindow(first);
    second.clock.offsetMs = first.clock.offsetMs;
    const remaining: string[] = [];
    for (let i = 0; i < limits.standard; i++) {
      const app = i % 2 === 0 ? first : second;
      const res = await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
      await exchanged();
    }
    // Each instance decides in memory and learns the shared count in the background: the second
    // instance's first request for this token is counted before it has heard of the first one's.
    expect(remaining).toEqual(['4', '4', '2', '1', '0']);
    expect((await second.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token })).status).toBe(429);
    expect((await first.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token })).status).toBe(429);
  });

  it('enforces one public per-IP limit across two instances', async () => {
    nextWindow(first);
    second.clock.offsetMs = first.clock.offsetMs;
    const ip = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
    const call = (app: TestApp) => app.request('GET', '/v1/api-docs', { headers: { 'x-forwarded-for': ip } });
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await call(i % 2 === 0 ? first : second)).status);
      await exchanged();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect((await call(second)).status).toBe(429);
  });
});

describe('rate limits with Redis unreachable', () => {
  let app: TestApp;
  beforeAll(async () => {
    const { testDatabases } = await import('../support/databases.js');
    app = await startTestApp(testDatabases[0] as never, {
      config: { redisUrl: 'redis://127.0.0.1:1', managementRateLimits: limits },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('falls back to counting in this instance, without stalling requests', async () => {
    const token = await seedToken(app, { scopes: ['audit:read'], tier: 'standard' });
    nextWindow(app);
    const started = Date.now();
    for (let i = 0; i < limits.standard; i++) {
      expect((await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token })).status).toBe(200);
    }
    expect((await app.request('GET', '/management/v1/audit-logs?per_page=1', { token: token.token })).status).toBe(429);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
