import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { redisAvailable, testRedisUrl } from '../support/redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Two deployments on one Redis (VEXIL_REDIS_PREFIX): their rate-limit counters are apart, while
 * two instances of one deployment share theirs.
 */
describe.runIf(redisAvailable)('deployments sharing one Redis', () => {
  const redisUrl = testRedisUrl;
  const apps: TestApp[] = [];
  const deployment = (name: string) => `t-${randomBytes(4).toString('hex')}-${name}:`;

  beforeAll(async () => {
    const db = testDatabases[0]!;
    const base = { redisUrl, publicRateLimit: 2, trustProxy: true, redisSyncMs: 20 };
    const staging = deployment('staging');
    apps.push(await startTestApp(db, { config: { ...base, redisPrefix: staging } }));
    const url = apps[0]!.composition.core.config.databaseUrl;
    apps.push(await startTestApp(db, { config: { ...base, redisPrefix: staging }, databaseUrl: url, keepDatabase: true }));
    apps.push(await startTestApp(db, { config: { ...base, redisPrefix: deployment('production') }, databaseUrl: url, keepDatabase: true }));
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
  });

  it('counts per prefix', async () => {
    const [stagingA, stagingB, production] = apps as [TestApp, TestApp, TestApp];
    // All three at the start of one rate window, so the window cannot end during the test.
    const offset = 60_000 - (Date.now() % 60_000) + 10;
    for (const app of apps) app.clock.offsetMs = offset;
    const ip = '10.20.30.40';
    // Each call waits for the instances' background exchange with Redis (every 20 ms here).
    const call = async (app: TestApp) => {
      const res = await app.request('GET', '/v1/api-docs', { headers: { 'x-forwarded-for': ip } });
      await new Promise((resolve) => setTimeout(resolve, 150));
      return res;
    };
    expect((await call(stagingA)).status).toBe(200);
    expect((await call(stagingB)).status).toBe(200);
    expect((await call(stagingA)).status).toBe(429);
    // The other deployment has its own counter for the same client.
    expect((await call(production)).status).toBe(200);
    expect((await call(production)).status).toBe(200);
    expect((await call(production)).status).toBe(429);
  });
});
