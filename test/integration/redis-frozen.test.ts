import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { PausableProxy } from '../support/pausable-proxy.js';
import { redisAvailable, testRedisUrl } from '../support/redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createEnvironmentKey, uniqueKey } from './admin-support.js';

/** How long Redis stays frozen: 20 s reproduces the reported outage; shorter by default to keep the suite quick. */
const freezeMs = Number(process.env.VEXIL_TEST_REDIS_FREEZE_MS ?? 3000);
/** The longest any request may take while Redis is frozen. */
const slowestAllowedMs = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A frozen Redis (connections open, nothing answered: a paused VM, a partition) behind a proxy
 * this test pauses. Rate limits are decided in memory and shared in the background, so
 * evaluations (public limit on), management reads and writes (whose change announcement goes to
 * Redis too) keep answering fast; /ready, /metrics and the log say Redis is down, and up again
 * once it answers.
 */
describeEachDatabase('a frozen Redis', (db) => {
  const redis = new URL(testRedisUrl);
  const proxy = new PausableProxy(redis.hostname, Number(redis.port || 6379));
  const logs: Array<{ msg: string; redis?: string }> = [];
  let app: TestApp;
  let apiKey = '';
  const projectKey = uniqueKey('frozen');

  beforeAll(async () => {
    if (!redisAvailable) return;
    const port = await proxy.start();
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
    app = await startTestApp(db, {
      logger,
      config: {
        redisUrl: `redis://127.0.0.1:${port}`,
        redisSyncMs: 50,
        redisTimeoutMs: 500,
        publicRateLimit: 100_000,
        managementRateLimits: { standard: 100_000, elevated: 100_000 },
      },
    });
    expect(
      (await app.mgmt('POST', '/projects', { key: projectKey, name: 'Frozen', environments: [{ key: 'production', name: 'Production' }] }))
        .status,
    ).toBe(200);
    expect((await app.mgmt('POST', `/projects/${projectKey}/flags`, { key: 'banner', name: 'Banner', type: 'boolean' })).status).toBe(200);
    apiKey = (await createEnvironmentKey(app, projectKey, 'production')).key;
  }, 60_000);

  afterAll(async () => {
    proxy.resume();
    await app?.close();
    await proxy.stop();
  });

  const ready = async () => (await app.request('GET', '/ready')).body as { status: string; redis: string };
  const redisUp = async () => {
    const res = await app.request('GET', '/metrics', { skipContract: true });
    return /^vexil_redis_up (\d)$/m.exec(String(res.body))?.[1];
  };
  async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  it.runIf(redisAvailable)(
    'keeps evaluations and management requests fast, and reports Redis down in /ready, /metrics and one log line',
    async () => {
      await until(async () => (await ready()).redis === 'up', 'Redis up');
      expect(await redisUp()).toBe('1');

      proxy.pause();
      const frozenAt = Date.now();
      const timings: Array<{ what: string; ms: number; status: number }> = [];
      const timed = async (what: string, call: () => Promise<{ status: number }>) => {
        const started = Date.now();
        const res = await call();
        timings.push({ what, ms: Date.now() - started, status: res.status });
      };
      let flags = 0;
      try {
        while (Date.now() - frozenAt < freezeMs) {
          await timed('evaluation', () => app.request('GET', '/v1/flags/banner', { apiKey }));
          await timed('management read', () => app.mgmt('GET', `/projects/${projectKey}/flags`));
          // A write refreshes this instance and announces the change over Redis before answering.
          await timed('management write', () =>
            app.mgmt('POST', `/projects/${projectKey}/flags`, { key: `f-${flags++}`, name: 'Flag', type: 'boolean' }),
          );
          await timed('readiness', () => app.request('GET', '/ready'));
          await sleep(20);
        }
        const state = await ready();
        expect(state).toMatchObject({ status: 'ready', redis: 'down' });
        expect(await redisUp()).toBe('0');
      } finally {
        proxy.resume();
      }

      expect(timings.filter((t) => t.status !== 200)).toEqual([]);
      const slowest = timings.reduce((a, b) => (b.ms > a.ms ? b : a));
      expect(slowest.ms, `${slowest.what} took ${slowest.ms} ms`).toBeLessThan(slowestAllowedMs);
      expect(timings.filter((t) => t.what === 'evaluation').length).toBeGreaterThan(3);

      await until(async () => (await ready()).redis === 'up', 'Redis up again');
      expect(await redisUp()).toBe('1');
      const changes = logs.filter((line) => line.redis !== undefined).map((line) => line.redis);
      // One line per change of state (never two alike in a row): up at start, down during the
      // freeze, up after it. A machine too busy to answer in time may add a down and up of its own.
      expect(changes[0]).toBe('up');
      expect(changes).toContain('down');
      expect(changes.slice(changes.indexOf('down'))).toContain('up');
      changes.forEach((state, i) => expect(state, changes.join(' ')).not.toBe(changes[i - 1]));
      expect(logs.find((line) => line.redis === 'down')?.msg).toMatch(/each instance limits on its own counts/);
    },
    60_000 + freezeMs,
  );
});
