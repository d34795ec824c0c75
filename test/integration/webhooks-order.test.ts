import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fastWebhooks, labels, sleep } from './webhook-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

// A subscription's events go out in the order their changes commit, not in the order of their
// ids: a change whose transaction started first but commits last is delivered last, never
// after a later one was already delivered in its place.
describeEachDatabase('webhook order across concurrent transactions', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `order-${Date.now().toString(36)}`;

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: fastWebhooks } });
    receiver = await new WebhookReceiver().start();
    await expectOk(app, 'POST', '/projects', { key: projectKey, name: 'Order' });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('numbers events in commit order, and delivers them so', async () => {
    const project = await app.knex('projects').where('key', projectKey).first('ulid');
    const hook = await expectOk(app, 'POST', `/projects/${projectKey}/webhooks`, { url: receiver.url, events: ['flag.updated'] });
    const change = (trx: Parameters<Parameters<typeof app.knex.transaction>[0]>[0], label: string) =>
      app.composition.auditWriter.writeSystem(trx, {
        action: 'flag.updated',
        subjectType: 'flag',
        subjectLabel: label,
        projectUlid: project.ulid,
      });

    // The first change takes its event id, then its transaction stays open for a while.
    let firstWritten!: () => void;
    const written = new Promise<void>((resolve) => (firstWritten = resolve));
    const slow = app.knex.transaction(async (trx) => {
      await change(trx, 'started first, committed last');
      firstWritten();
      // Long enough for the other change to commit and be delivered, were it allowed to.
      await sleep(1_500);
    });
    await written;
    const quick = app.knex.transaction((trx) => change(trx, 'started last'));
    await Promise.all([slow, quick]);

    await receiver.waitFor(() => receiver.received.length === 2);
    await sleep(200);
    expect(labels(receiver.received)).toEqual(['started first, committed last', 'started last']);
    const log = (await expectOk(app, 'GET', `/projects/${projectKey}/webhooks/${hook.ulid}/deliveries`)) as Array<{
      sequence: number;
      status: string;
    }>;
    expect(log.map((d) => [d.sequence, d.status])).toEqual([
      [1, 'delivered'],
      [2, 'delivered'],
    ]);
  });
});
