import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { describeEachDatabase } from '../support/databases.js';
import { expectOk } from '../support/expect-ok.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

const webhooks: Config['webhooks'] = {
  allowHttp: true,
  allowPrivate: true,
  pollMs: 30,
  timeoutMs: 1000,
  retryBaseMs: 50,
  maxAgeMs: 60_000,
  disableAfter: 10,
  concurrency: 8,
  retentionDays: 30,
};

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
    expect((await entry('flag.created')).changes).toEqual({
      after: expect.objectContaining({ key: 'banner', name: 'Banner', permanent: false }),
    });
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
    expect(published.changes).toMatchObject({
      comment: 'Say hello',
      before: { status: 'draft' },
      after: { status: 'published', comment: 'Say hello' },
    });
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
    const rule = await ok('POST', rulesPath, {
      value_ulid: values[0]!.ulid,
      description: 'Staff',
      criteria: [{ selector: 'context', comparer: 'in', values: ['u-1'] }],
    });
    await ok('PUT', `${rulesPath}/${rule.ulid}`, {
      value_ulid: values[0]!.ulid,
      description: 'Staff only',
      criteria: [{ selector: 'context', comparer: 'in', values: ['u-1'] }],
    });
    const updated = await entry('target_rule.updated');
    expect(updated.changes.before.description).toBe('Staff');
    expect(updated.changes.after.description).toBe('Staff only');
    await ok('PUT', p, { name: 'Changes, renamed' });
    expect((await entry('project.updated')).changes).toMatchObject({ before: { name: 'Changes' }, after: { name: 'Changes, renamed' } });
  });

  it('records rule reorders, and credentials and accounts without their secrets or digests', async () => {
    const values: Array<{ ulid: string }> = await ok('GET', `${p}/flags/banner/values`);
    const draft = await ok('POST', `${p}/flags/banner/environments/production/targets`);
    const rulesPath = `${p}/flags/banner/environments/production/targets/${draft.ulid}/rules`;
    const existing: Array<{ ulid: string }> = await ok('GET', rulesPath);
    const added = await ok('POST', rulesPath, {
      value_ulid: values[0]!.ulid,
      description: 'Last',
      criteria: [{ selector: 'context', comparer: 'in', values: ['u-9'] }],
    });
    const order = [added.ulid, ...existing.map((r) => r.ulid)];
    await ok('PUT', `${p}/flags/banner/environments/production/targets/${draft.ulid}/rules-order`, {
      rules: order.map((ulid, i) => ({ ulid, order: i })),
    });
    const reordered = await entry('target_rule.reordered');
    expect(reordered.changes.before.map((r: { ulid: string }) => r.ulid)).toEqual([...existing.map((r) => r.ulid), added.ulid]);
    expect(reordered.changes.after.map((r: { ulid: string }) => r.ulid)).toEqual(order);

    const token = await ok('POST', '/tokens', { name: 'CI', scopes: ['flags:read'] });
    await ok('DELETE', `/tokens/${token.ulid}`);
    const account = await ok('POST', '/accounts', {
      name: 'Member',
      email: `m-${Date.now()}@example.test`,
      role: 'member',
      projects: [projectKey],
    });
    const pat = await ok('POST', `/accounts/${account.ulid}/tokens`, { name: 'Laptop' });
    const patDigest = (await app.knex('personal_access_tokens').where('ulid', pat.ulid).first('digest')).digest as string;
    await ok('DELETE', `/accounts/${account.ulid}/tokens/${pat.ulid}`);
    await ok('DELETE', `/accounts/${account.ulid}`);
    const key = await ok('POST', `${p}/environments/production/keys`, { kind: 'server' });
    await ok('DELETE', `${p}/environments/production/keys/${key.ulid}`);
    const hook = await ok('POST', `${p}/webhooks`, { url: receiver.url, events: ['flag.*'] });
    await ok('PUT', `${p}/webhooks/${hook.ulid}`, { url: receiver.url, events: ['flag.*'], enabled: false });

    const all = async (action: string) => (await app.mgmt('GET', `/audit-logs?action=${action}&per_page=1`)).body.data[0];
    expect((await all('token.created')).changes).toEqual({
      after: expect.objectContaining({ ulid: token.ulid, name: 'CI', scopes: ['flags:read'], revoked_at: null }),
    });
    expect((await all('token.revoked')).changes).toMatchObject({
      before: { ulid: token.ulid, revoked_at: null },
      after: { revoked_at: expect.any(String) },
    });
    expect((await all('account.created')).changes).toEqual({
      after: expect.objectContaining({ ulid: account.ulid, role: 'member', projects: [projectKey] }),
    });
    expect((await all('personal_token.created')).changes).toMatchObject({ after: { ulid: pat.ulid, name: 'Laptop' } });
    expect((await all('personal_token.revoked')).changes).toMatchObject({
      before: { revoked_at: null },
      after: { revoked_at: expect.any(String) },
    });
    expect((await all('account.deleted')).changes).toMatchObject({ before: { ulid: account.ulid } });
    expect((await all('environment_key.created')).changes).toMatchObject({ after: { ulid: key.ulid, masked_key: key.masked_key } });
    expect((await all('environment_key.revoked')).changes).toMatchObject({
      before: { revoked_at: null },
      after: { revoked_at: expect.any(String) },
    });
    expect((await entry('webhook.created')).changes).toEqual({
      after: expect.objectContaining({ ulid: hook.ulid, events: ['flag.*'], enabled: true }),
    });
    expect((await entry('webhook.updated')).changes).toMatchObject({ before: { enabled: true }, after: { enabled: false } });

    // No secret, digest or sealed secret in any recorded change.
    const secrets = [token.token, pat.token, key.key, hook.secret];
    const digests = [
      patDigest,
      (await app.knex('management_tokens').where('ulid', token.ulid).first('digest')).digest as string,
      (await app.knex('environment_keys').where('ulid', key.ulid).first('digest')).digest as string,
    ];
    const sealed = (await app.knex('webhooks').where('ulid', hook.ulid).first('secret_sealed')).secret_sealed as string;
    const recorded = (await app.knex('audit_entries').whereNotNull('changes').select('changes'))
      .map((r: { changes: string }) => r.changes)
      .join('\n');
    for (const needle of [...secrets, ...digests, sealed, 'digest', 'secret']) {
      expect(recorded.includes(needle), needle).toBe(false);
    }
  });
});
