import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

const webhooks: Config['webhooks'] = { allowHttp: true, allowPrivate: true, pollMs: 30, timeoutMs: 1000, retryBaseMs: 50, maxAgeMs: 60_000, disableAfter: 10, concurrency: 8, retentionDays: 30 };

// One change record feeds the audit log and the webhook event: the subject before and after.
describeEachDatabase('audit entries record what changed', (db) => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  const projectKey = `changes-${Date.now().toString(36)}`;
  const p = `/projects/${projectKey}`;
  const ok = (method: string, path: string, body?: unknown) => expectOk(app, method, path, body);

  /** The newest audit entry of an action, as the API lists it. */
  async function entry(action: string): Promise<any> {
    const res = await app.mgmt('GET', `/audit-logs?project=${projectKey}&action=${action}&per_page=1`);
    expect(res.status).toBe(200);
    return res.body.data[0];
  }

  beforeAll(async () => {
    app = await startTestApp(db, { config: { webhooks } });
    receiver = await new WebhookReceiver().start();
    await ok('POST', '/projects', { key: projectKey, name: 'Changes', environments: [{ key: 'production', name: 'Production' }] });
    await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['target.published'] });
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('shows a flag before and after an update, and only after its creation', async () => {
    await ok('POST', `${p}/flags`, { key: 'banner', name: 'Banner', type: 'string' });
    expect((await entry('flag.created')).changes).toEqual({ after: expect.objectContaining({ key: 'banner', name: 'Banner', permanent: false }) });
    await ok('PUT', `${p}/flags/banner`, { name: 'Banner v2', permanent: true });
    const updated = await entry('flag.updated');
    expect(updated.changes.before).toMatchObject({ name: 'Banner', permanent: false });
    expect(updated.changes.after).toMatchObject({ name: 'Banner v2', permanent: true });
    // Reads record nothing.
    await ok('GET', `${p}/flags/banner`);
    expect((await entry('flag.read')).changes).toBeNull();
  });

  it('shows values and segments as the API shows them', async () => {
    await ok('POST', `${p}/flags/banner/values`, { display: 'Hello' });
    expect((await entry('flag_value.created')).changes.after).toMatchObject({ display: 'Hello', value: 'Hello', default: true });
    await ok('POST', `${p}/segments`, { key: 'staff', name: 'Staff', included: ['u-1'] });
    await ok('PUT', `${p}/segments/staff`, { name: 'Staff', included: ['u-1', 'u-2'] });
    const segment = await entry('segment.updated');
    expect(segment.changes.before.included).toEqual(['u-1']);
    expect(segment.changes.after.included).toEqual(['u-1', 'u-2']);
  });

  it('records a publish with its comment, in the audit log and in the webhook event alike', async () => {
    const draft = await ok('POST', `${p}/flags/banner/environments/production/targets`);
    await ok('PUT', `${p}/flags/banner/environments/production/targets/${draft.ulid}/publish`, { comment: 'Say hello' });
    const published = await entry('target.published');
    expect(published.changes).toMatchObject({ comment: 'Say hello', before: { status: 'draft' }, after: { status: 'published', comment: 'Say hello' } });
    await receiver.waitFor(() => receiver.received.length === 1);
    const event = JSON.parse(receiver.received[0]!.body);
    expect(event.data.changes).toEqual(published.changes);
  });

  it('records rules, environments and projects before and after too', async () => {
    await ok('PUT', `${p}/environments/production`, { name: 'Production', comments_required: true });
    const environment = await entry('environment.updated');
    expect(environment.changes.before).toMatchObject({ key: 'production', comments_required: false });
    expect(environment.changes.after).toMatchObject({ key: 'production', comments_required: true });
    const values: Array<{ ulid: string; display: string }> = await ok('GET', `${p}/flags/banner/values`);
    const draft = await ok('POST', `${p}/flags/banner/environments/production/targets`);
    const rulesPath = `${p}/flags/banner/environments/production/targets/${draft.ulid}/rules`;
    const rule = await ok('POST', rulesPath, { value_ulid: values[0]!.ulid, description: 'Staff', criteria: [{ selector: 'context', comparer: 'in', values: ['u-1'] }] });
    await ok('PUT', `${rulesPath}/${rule.ulid}`, { value_ulid: values[0]!.ulid, description: 'Staff only', criteria: [{ selector: 'context', comparer: 'in', values: ['u-1'] }] });
    const updated = await entry('target_rule.updated');
    expect(updated.changes.before.description).toBe('Staff');
    expect(updated.changes.after.description).toBe('Staff only');
    await ok('PUT', p, { name: 'Changes, renamed' });
    expect((await entry('project.updated')).changes).toMatchObject({ before: { name: 'Changes' }, after: { name: 'Changes, renamed' } });
  });
});
