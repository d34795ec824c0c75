import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { fastWebhooks, sleep } from './webhook-fixtures.js';
import { WebhookReceiver } from './webhook-receiver.js';

interface Delivered {
  type: string;
  data: {
    environment: { key: string } | null;
    subject: { type: string; label: string };
    actor: { type: string; name: string };
    changes: { before?: any; after?: any; comment?: string | null } | null;
  };
}

// Which changes become events, what each carries, and which subscriptions take them.
describeEachDatabase('webhook events', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `events-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);
  const delivered = () => receiver.received.map((r) => JSON.parse(r.body) as Delivered);
  const ofType = (type: string) => delivered().filter((e) => e.type === type);

  /** Waits until the receiver stopped getting deliveries for a moment. */
  async function settled(): Promise<void> {
    let seen = -1;
    while (seen !== receiver.received.length) {
      seen = receiver.received.length;
      await sleep(250);
    }
  }

  async function subscribe(events: string[], environments?: string[]): Promise<string> {
    return (await ok('POST', `${p}/webhooks`, { url: receiver.url, events, ...(environments ? { environments } : {}) })).ulid;
  }

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks: fastWebhooks } });
    await ok('POST', '/projects', {
      key: projectKey,
      name: 'Events',
      environments: [
        { key: 'staging', name: 'Staging' },
        { key: 'production', name: 'Production' },
        { key: 'qa', name: 'QA' },
      ],
    });
  });
  beforeEach(async () => {
    for (const hook of await app.knex('webhooks').select('ulid')) await ok('DELETE', `${p}/webhooks/${hook.ulid}`);
    await receiver?.close();
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('announces flag value and segment changes, each with the subject before and after', async () => {
    await subscribe(['flag_value.*', 'segment.*']);
    await ok('POST', `${p}/flags`, { key: 'banner', name: 'Banner', type: 'string' });
    const hello = await ok('POST', `${p}/flags/banner/values`, { display: 'Hello' });
    const sale = await ok('POST', `${p}/flags/banner/values`, { display: 'Sale' });
    await ok('PUT', `${p}/flags/banner/values/${sale.ulid}`, { display: 'Big sale' });
    await ok('PATCH', `${p}/flags/banner/values/${sale.ulid}/default`);
    await ok('DELETE', `${p}/flags/banner/values/${hello.ulid}`);
    await ok('POST', `${p}/segments`, { key: 'staff', name: 'Staff', included: ['u-1'] });
    await ok('PUT', `${p}/segments/staff`, { name: 'Staff', included: ['u-1', 'u-2'] });
    await ok('DELETE', `${p}/segments/staff`);
    await receiver.waitFor(() => receiver.received.length === 8);
    await settled();
    expect(delivered().map((e) => e.type)).toEqual([
      'flag_value.created',
      'flag_value.created',
      'flag_value.updated',
      'flag_value.default_set',
      'flag_value.deleted',
      'segment.created',
      'segment.updated',
      'segment.deleted',
    ]);
    expect(ofType('flag_value.updated')[0]!.data.changes).toMatchObject({ before: { display: 'Sale' }, after: { display: 'Big sale' } });
    expect(ofType('flag_value.default_set')[0]!.data.changes).toMatchObject({ after: { ulid: sale.ulid, default: true } });
    expect(ofType('flag_value.deleted')[0]!.data.changes).toMatchObject({ before: { display: 'Hello' } });
    expect(ofType('segment.updated')[0]!.data.changes).toMatchObject({
      before: { included: ['u-1'] },
      after: { included: ['u-1', 'u-2'] },
    });
    expect(ofType('segment.deleted')[0]!.data.changes).toMatchObject({ before: { key: 'staff' } });
  });

  it('announces rollouts and scheduled publishes, the system publish with its comment', async () => {
    await subscribe(['target.*'], ['production']);
    await ok('POST', `${p}/flags`, { key: 'checkout', name: 'Checkout', type: 'boolean' });
    const values: Array<{ ulid: string; display: string }> = await ok('GET', `${p}/flags/checkout/values`);
    const on = values.find((v) => v.display === 'true')!.ulid;
    const targets = `${p}/flags/checkout/environments/production/targets`;

    // A manual rollout: published at 10 %, moved to 30 %, completed.
    const rolling = await ok('POST', targets);
    await ok('PUT', `${targets}/${rolling.ulid}`, { value_ulid: on });
    await ok('PUT', `${targets}/${rolling.ulid}/publish`, {
      comment: 'Ten percent',
      rollout_enabled: true,
      rollout_mode: 'manual',
      rollout_percentage: 10,
    });
    await ok('PUT', `${targets}/${rolling.ulid}/rollout`, { rollout_percentage: 30 });
    await ok('POST', `${targets}/${rolling.ulid}/rollout/complete`);
    // A rollout set up on a draft, then dropped.
    const dropped = await ok('POST', targets);
    await ok('POST', `${targets}/${dropped.ulid}/rollout`, { rollout_mode: 'automatic' });
    await ok('DELETE', `${targets}/${dropped.ulid}/rollout`);
    // A publish scheduled a minute ahead, then published by the scheduler when the time comes.
    const scheduled = await ok('POST', targets);
    const at = new Date(app.clock.now().getTime() + 60_000).toISOString();
    await ok('PUT', `${targets}/${scheduled.ulid}/publish`, { comment: 'Friday release', scheduled_at: at });
    // Staging changes are not this subscription's.
    await ok('POST', `${p}/flags/checkout/environments/staging/targets`);
    app.clock.advance(61_000);

    await receiver.waitFor(() => ofType('target.published').length === 2, 10_000);
    await settled();
    expect(delivered().map((e) => e.type)).toEqual([
      'target.created',
      'target.updated',
      'target.published',
      'target.rollout_updated',
      'target.rollout_completed',
      'target.cloned',
      'target.rollout_initialized',
      'target.rollout_deleted',
      'target.cloned',
      'target.scheduled',
      'target.published',
    ]);
    expect(delivered().every((e) => e.data.environment?.key === 'production')).toBe(true);
    const [updated] = ofType('target.rollout_updated');
    expect(updated!.data.changes).toMatchObject({
      before: { rollout_percentage: 10 },
      after: { rollout_percentage: 30, rollout_status: 'active' },
    });
    expect(ofType('target.rollout_completed')[0]!.data.changes).toMatchObject({
      before: { rollout_percentage: 30 },
      after: { rollout_percentage: 100, rollout_status: 'completed' },
    });
    expect(ofType('target.rollout_initialized')[0]!.data.changes).toMatchObject({
      before: { rollout_mode: null },
      after: { rollout_mode: 'automatic', rollout_status: 'active' },
    });
    expect(ofType('target.rollout_deleted')[0]!.data.changes).toMatchObject({
      before: { rollout_mode: 'automatic' },
      after: { rollout_mode: null },
    });
    expect(ofType('target.scheduled')[0]!.data.changes).toMatchObject({
      comment: 'Friday release',
      after: { status: 'scheduled', scheduled_at: at },
    });
    const bySystem = ofType('target.published')[1]!;
    expect(bySystem.data.actor).toMatchObject({ type: 'system', name: 'system' });
    expect(bySystem.data.changes).toEqual({
      comment: 'Friday release',
      before: expect.objectContaining({ ulid: scheduled.ulid, status: 'scheduled' }),
      after: expect.objectContaining({ ulid: scheduled.ulid, status: 'published', comment: 'Friday release' }),
    });
    // The audit log shows the system's publish the same way.
    const audit = await app.mgmt('GET', `/audit-logs?project=${projectKey}&action=target.published&per_page=1`);
    expect(audit.body.data[0].changes).toEqual(bySystem.data.changes);
  });

  it('takes family patterns: flag.* takes flag events and not flag_value ones', async () => {
    await subscribe(['flag.*']);
    await ok('POST', `${p}/flags`, { key: 'patterned', name: 'Patterned', type: 'string' });
    await ok('POST', `${p}/flags/patterned/values`, { display: 'x' });
    await ok('PUT', `${p}/flags/patterned`, { name: 'Patterned 2', permanent: false });
    await ok('POST', `${p}/flags/bulk-delete`, { flag_keys: ['patterned', 'missing'] });
    await receiver.waitFor(() => receiver.received.length === 4);
    await settled();
    expect(delivered().map((e) => e.type)).toEqual(['flag.created', 'flag.updated', 'flag.deleted', 'flag.bulk_deleted']);
    expect(ofType('flag.bulk_deleted')[0]!.data.changes).toEqual({
      before: [expect.objectContaining({ key: 'patterned', name: 'Patterned 2' })],
    });
  });

  it('announces each flag of a bulk delete as flag.deleted, as a single delete is announced', async () => {
    // The README's example subscription: it takes flag.deleted, not flag.bulk_deleted.
    await subscribe(['target.*', 'flag.deleted']);
    const made: Record<string, unknown> = {};
    for (const key of ['alone', 'old-banner', 'legacy-search'])
      made[key] = await ok('POST', `${p}/flags`, { key, name: key, type: 'boolean' });
    await ok('DELETE', `${p}/flags/alone`);
    // As the console deletes: several keys, one of them no longer there.
    await ok('POST', `${p}/flags/bulk-delete`, { flag_keys: ['legacy-search', 'missing', 'old-banner'] });
    await receiver.waitFor(() => receiver.received.length === 3);
    await settled();
    expect(delivered().map((e) => [e.type, e.data.subject.label])).toEqual([
      ['flag.deleted', 'alone'],
      ['flag.deleted', 'legacy-search'],
      ['flag.deleted', 'old-banner'],
    ]);
    for (const event of delivered()) {
      const flag = made[event.data.subject.label] as { ulid: string };
      expect(event.data.subject).toEqual({ type: 'flag', ulid: flag.ulid, label: event.data.subject.label });
      expect(event.data.changes).toEqual({ before: flag });
      expect(event.data.actor.type).toBe('account');
    }
    // The audit log records the same deletions with the same record.
    const audit = await app.mgmt('GET', `/audit-logs?project=${projectKey}&action=flag.deleted&per_page=3`);
    expect(audit.body.data.map((e: { subject_label: string; changes: unknown }) => [e.subject_label, e.changes])).toEqual(
      [...delivered()].reverse().map((e) => [e.data.subject.label, e.data.changes]),
    );
  });

  it('applies the environment filter to environment.deleted too', async () => {
    await subscribe(['environment.*'], ['staging']);
    await ok('DELETE', `${p}/environments/qa`);
    await ok('PUT', `${p}/environments/staging`, { name: 'Staging 2' });
    await ok('DELETE', `${p}/environments/staging`);
    await receiver.waitFor(() => receiver.received.length === 2);
    await settled();
    expect(delivered().map((e) => [e.type, e.data.environment?.key])).toEqual([
      ['environment.updated', 'staging'],
      ['environment.deleted', 'staging'],
    ]);
  });

  it('queues nothing for a disabled subscription, and sends what waited when it is enabled again', async () => {
    const hook = await subscribe(['flag.*']);
    await ok('POST', `${p}/flags`, { key: 'before-pause', name: 'Before', type: 'boolean' });
    await receiver.waitFor(() => receiver.received.length === 1);
    // The receiver has it; wait for the delivery task to record that too.
    for (let i = 0; i < 100 && (await app.knex('webhook_events').where('webhook_ulid', hook).first('status')).status !== 'delivered'; i++)
      await sleep(20);
    // A backlog left from before the pause: an event that could not be sent yet.
    await app.knex('webhook_events').where('webhook_ulid', hook).update({ status: 'pending', next_attempt_at: '2999-01-01T00:00:00.000Z' });
    await ok('PUT', `${p}/webhooks/${hook}`, { url: receiver.url, events: ['flag.*'], enabled: false });
    await ok('POST', `${p}/flags`, { key: 'while-paused', name: 'While', type: 'boolean' });
    expect(await app.knex('webhook_events').where('webhook_ulid', hook).count({ n: '*' }).first()).toEqual({ n: 1 });
    await app.knex('webhook_events').where('webhook_ulid', hook).update({ next_attempt_at: '2000-01-01T00:00:00.000Z' });
    await sleep(200);
    expect(receiver.received.length).toBe(1);

    await ok('PUT', `${p}/webhooks/${hook}`, { url: receiver.url, events: ['flag.*'], enabled: true });
    await ok('POST', `${p}/flags`, { key: 'after-pause', name: 'After', type: 'boolean' });
    await receiver.waitFor(() => receiver.received.length === 3);
    await settled();
    expect(delivered().map((e) => e.data.subject.label)).toEqual(['before-pause', 'before-pause', 'after-pause']);
  });
});
