import { createClient } from 'redis';

/** The Redis the suites that share counters or change notifications use. */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const client = createClient({ url: testRedisUrl, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.close();
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the Redis suites run. Redis is required in CI and whenever VEXIL_REQUIRE_REDIS=1
 * (`make test` sets it): a test file that needs it then fails with this message instead of
 * skipping. Elsewhere its absence is reported loudly and those suites are skipped.
 */
export const redisAvailable: boolean = await (async () => {
  if (await redisReachable()) return true;
  if (process.env.CI || process.env.VEXIL_REQUIRE_REDIS === '1') {
    throw new Error(
      `Redis is required for the integration tests but ${testRedisUrl} is not reachable (start redis-server, or set TEST_REDIS_URL).`,
    );
  }
  console.warn(`\n*** Redis not reachable at ${testRedisUrl}: the suites that need Redis are skipped. ***\n`);
  return false;
})();
