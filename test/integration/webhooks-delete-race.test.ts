import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebhookStore } from '../../src/features/webhooks/store.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { noDelivery, sleep } from './webhook-fixtures.js';

/**
 * A subscription deleted while a delivery task records an attempt's result: both touch the
 * subscription's row and its events, and must lock them in one order, or MariaDB ends one of them
 * as a deadlock (the deletion answered 500).
 */
describeEachDatabase('deleting a webhook subscription while an attempt is recorded', (db) => {
  let app: TestApp;
  let store: WebhookStore;
  const projectKey = `hook-race-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: noDelivery } });
    store = new WebhookStore(app.composition.core.dialect);
    await expectOk(app, 'POST', '/projects', { key: projectKey, name: 'Hook race' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lets the deletion finish and drops the late result', async () => {
    const hook = await expectOk(app, 'POST', `${p}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['flag.created'] });
    await expectOk(app, 'POST', `${p}/flags`, { key: 'raced', name: 'Raced', type: 'boolean' });
    const event = await app.knex('webhook_events').where('webhook_ulid', hook.ulid).first('ulid', 'webhook_ulid');
    expect(await store.claim(app.knex, event.ulid, 'claim-1', 60_000)).toBe(true);

    // The deletion's transaction, as the service runs it: the subscription's row, then its events.
    const project = await app.knex('projects').where('key', projectKey).first('ulid');
    const deletion = await app.knex.transaction();
    try {
      expect(await store.find(deletion, project.ulid, hook.ulid, { lock: true })).toBeDefined();
      const nowIso = new Date().toISOString();
      const recording = store.recordAttempt(
        app.knex,
        event,
        'claim-1',
        { status: 'failed', code: 500, error: 'HTTP 500', durationMs: 3, nextAttemptAt: null, nowIso },
        1000,
      );
      await sleep(300);
      await store.remove(deletion, hook.ulid);
      await deletion.commit();
      // The result arrives after the subscription is gone: nothing is recorded.
      expect(await recording).toBe(false);
    } finally {
      if (!deletion.isCompleted()) await deletion.rollback();
    }
    expect(await app.knex('webhook_events').where('webhook_ulid', hook.ulid)).toEqual([]);
    expect(await app.knex('webhooks').where('ulid', hook.ulid)).toEqual([]);
  });
});
