import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, testDatabases } from '../support/databases.js';
import { hasSample, parseExposition, sampleValue, type Exposition } from '../support/prometheus.js';
import { redisAvailable, testRedisUrl } from '../support/redis.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from './public-fixtures.js';
import { noDelivery } from './webhook-fixtures.js';

async function scrape(app: TestApp): Promise<Exposition> {
  const res = await app.request('GET', '/metrics');
  expect(res.status).toBe(200);
  return parseExposition(res.body as string);
}

// Operating gauges: the database pool, the webhook backlog and the Redis connections.
describeEachDatabase('metrics: database pool and webhook backlog', (db) => {
  let app: TestApp;

  beforeAll(async () => {
    // No delivery task: events stay pending, as behind a receiver that is down.
    app = await startTestApp(db, { config: { webhooks: { ...noDelivery, allowPrivate: true } } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reports connections in use and idle, and requests waiting for one', async () => {
    const metrics = await scrape(app);
    expect(hasSample(metrics, 'vexil_db_pool_connections', { state: 'in_use' })).toBe(true);
    expect(hasSample(metrics, 'vexil_db_pool_connections', { state: 'idle' })).toBe(true);
    expect(hasSample(metrics, 'vexil_db_pool_waiting')).toBe(true);
    // A transaction held open is a connection in use; on SQLite (one connection) a query then waits.
    let release!: () => void;
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const held = app.knex.transaction(async (trx) => {
      await trx.select(app.knex.raw('1 as one'));
      opened();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await open;
    const queued = db.name === 'sqlite' ? app.knex.select(app.knex.raw('1 as one')) : Promise.resolve();
    await new Promise((r) => setTimeout(r, 50));
    // The pool is read when the scrape starts; the scrape's backlog query may wait for the release.
    const during = scrape(app);
    await new Promise((r) => setTimeout(r, 100));
    release();
    await held;
    await queued;
    const metrics2 = await during;
    expect(sampleValue(metrics2, 'vexil_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(1);
    if (db.name === 'sqlite') expect(sampleValue(metrics2, 'vexil_db_pool_waiting')).toBeGreaterThanOrEqual(1);
  });

  it('reports the pending webhook events and how long the oldest has waited', async () => {
    const empty = await scrape(app);
    expect(sampleValue(empty, 'vexil_webhook_backlog_events')).toBe(0);
    expect(sampleValue(empty, 'vexil_webhook_oldest_pending_age_seconds')).toBe(0);

    await app.mgmt('POST', '/projects', { key: 'backlog', name: 'Backlog' });
    const hook = await app.mgmt('POST', '/projects/backlog/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['flag.created'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    for (const key of ['one', 'two', 'three']) await app.mgmt('POST', '/projects/backlog/flags', { key, name: key, type: 'boolean' });
    app.clock.advance(90_000);
    const waiting = await scrape(app);
    expect(sampleValue(waiting, 'vexil_webhook_backlog_events')).toBe(3);
    expect(sampleValue(waiting, 'vexil_webhook_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(90);
  });
});

describe.skipIf(!redisAvailable)('metrics: Redis connection state', () => {
  let connected: TestApp;
  let unreachable: TestApp;

  beforeAll(async () => {
    const closed = net.createServer();
    const port = await new Promise<number>((resolve) =>
      closed.listen(0, '127.0.0.1', () => resolve((closed.address() as net.AddressInfo).port)),
    );
    await new Promise((resolve) => closed.close(resolve));
    connected = await startTestApp(testDatabases[0]!, { config: { redisUrl: testRedisUrl } });
    unreachable = await startTestApp(testDatabases[0]!, { config: { redisUrl: `redis://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await connected?.close();
    await unreachable?.close();
  });

  it('is 1 for each Redis client while connected and 0 while not', async () => {
    const state = async (app: TestApp, client: string) => sampleValue(await scrape(app), 'vexil_redis_connection_state', { client });
    await waitFor(
      async () => (await state(connected, 'rate_limits')) === 1 && (await state(connected, 'change_notifications')) === 1,
      5000,
      'both clients connected',
    );
    expect(await state(unreachable, 'rate_limits')).toBe(0);
    expect(await state(unreachable, 'change_notifications')).toBe(0);
  });

  it('is absent without REDIS_URL', async () => {
    const plain = await startTestApp(testDatabases[0]!);
    try {
      expect(hasSample(await scrape(plain), 'vexil_redis_connection_state', { client: 'rate_limits' })).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
